#!/usr/bin/env node
// The SDK package's bin `svc-mcp`: the stdio tool server (stdio-server.ts).
import { runStdioServer } from './stdio-server.js';

const code = await runStdioServer(process.env, (text) => process.stderr.write(text));
if (code !== 0) process.exit(code);
