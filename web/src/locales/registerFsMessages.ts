/**
 * Importing this adds the `fs` texts to i18next. Only the explorer and mount management chunks import it, so the
 * shell (every other route) never carries them.
 */
import { addStaticTextArea } from '../lib/i18n';
import { fsMessages } from './fsMessages';

addStaticTextArea('fs', fsMessages);
