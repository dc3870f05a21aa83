// Loads the optional sendfile addon (native/src/sendfile.c). `sendfile` is null where it is not built.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let binding = null;
let loadError = null;
if (process.platform === 'linux') {
  try {
    binding = require('./build/Release/clipnest_sendfile.node');
  } catch (error) {
    loadError = error instanceof Error ? error.message : String(error);
  }
} else {
  loadError = `sendfile is only built on Linux (this is ${process.platform})`;
}

export const sendfile = binding;
export const sendfileLoadError = loadError;
