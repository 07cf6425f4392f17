#!/usr/bin/env node
// Launcher for `npx svc`: registers tsx so the TypeScript sources run as they are, then runs the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../server/src/cli/main.ts');
