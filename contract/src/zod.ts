// zod for the contract's schemas. In a browser the app shell's Content-Security-Policy forbids eval, so zod
// validates without its JIT (`new Function`, which it would otherwise probe on the first object it parses).
// Set here, where every schema module gets zod, so pages that never parse a schema never load zod at all.
import { config, z } from 'zod';

if ('document' in globalThis) config({ jitless: true });

export { z };
