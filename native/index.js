// Loads the optional sendfile addon (native/src): `sendfile` is null where it is not built.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function load(name) {
  if (process.platform !== 'linux') {
    return { binding: null, error: `the addon is only built on Linux (this is ${process.platform})` };
  }
  try {
    return { binding: require(`./build/Release/${name}.node`), error: null };
  } catch (error) {
    return { binding: null, error: error instanceof Error ? error.message : String(error) };
  }
}

const sendfileAddon = load('clipnest_sendfile');

export const sendfile = sendfileAddon.binding;
export const sendfileLoadError = sendfileAddon.error;
