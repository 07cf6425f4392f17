// `npm start`: the service on the source as it is now, run as its transpiled JS (scripts/transpiled.mjs), or through
// tsx when that cannot be made (a checkout it cannot write to).
import { runSource } from './transpiled.mjs';

await runSource('server/src/main.ts');
