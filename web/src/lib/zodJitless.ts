// Imported first by main.tsx: the app shell's Content-Security-Policy forbids eval, so zod validates
// without its JIT (`new Function`), which it would otherwise probe on the first object it parses.
// It imports zod itself, not the contract, whose modules parse their defaults as they load.
import { config } from 'zod';

config({ jitless: true });
