// `npm run build`, after tsc: what the compiled service reads at run time beside its code, copied to the same
// places under dist/ (the code finds each relative to its own file): the document (as the JSON codegen makes of
// openapi.yaml), the static pages, the IRSF list, and the worker threads' .mjs files (placement, recorder,
// batches), which tsc does not emit. `npm test` copies the same beside the service it transpiles for the processes
// its tests start (its argument: that folder).
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] ?? 'dist';
const copy = (from) => cpSync(from, join(out, from), { recursive: true });
copy('server/src/generated/openapi.gen.json');
copy('server/static');
copy('server/data');
for (const dir of ['server/src/placement', 'server/src/recording', 'server/src/batches']) for (const file of readdirSync(dir)) if (file.endsWith('.mjs')) copy(join(dir, file));
