/**
 * Importing this adds the `fs` texts to i18next. Only the explorer and mount management chunks import it, so the
 * shell (every other route) never carries them.
 */
import i18n from '../lib/i18n';
import { fsMessages } from './fsMessages';

for (const [lang, fs] of Object.entries(fsMessages)) i18n.addResourceBundle(lang, 'translation', { fs }, true, true);
