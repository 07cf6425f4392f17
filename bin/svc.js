#!/usr/bin/env node
// Launcher for `npx svc`: runs the CLI on the source as it is now, as its transpiled JS (scripts/transpiled.mjs), or
// through tsx when that cannot be made.
import { runSource } from '../scripts/transpiled.mjs';

await runSource('server/src/cli/main.ts');
