// Loads the optional addons (native/src): `sendfile` and `compress` are null where they are not built.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function load(name) {
  if (process.platform !== 'linux') {
    return { binding: null, error: `the addons are only built on Linux (this is ${process.platform})` };
  }
  try {
    return { binding: require(`./build/Release/${name}.node`), error: null };
  } catch (error) {
    return { binding: null, error: error instanceof Error ? error.message : String(error) };
  }
}

const sendfileAddon = load('clipnest_sendfile');
const compressAddon = load('clipnest_compress');

export const sendfile = sendfileAddon.binding;
export const sendfileLoadError = sendfileAddon.error;
export const compress = compressAddon.binding;
export const compressLoadError = compressAddon.error;
