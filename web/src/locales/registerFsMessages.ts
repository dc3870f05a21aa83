/**
 * Importing this adds the `fs` texts to the app's texts (lib/i18n.ts). Only the explorer and mount management chunks import it, so the
 * shell (every other route) never carries them.
 */
import { addStaticTextArea } from '../lib/i18n';
import { fsMessages } from './fsMessages';

addStaticTextArea('fs', fsMessages);
