// Derives everything from openapi.yaml: the SDK's typed fetch client, the server's types, the server's operation
// table, the document as JSON and the Python SDK's models and operations. `npm run codegen` writes into the repo;
// `npm run codegen:check` writes into a temporary folder and fails when the committed files differ (the drift gate).
import { createClient } from '@hey-api/openapi-ts';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { generatePython } from './python.js';

export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const GENERATED_DIRS = ['sdk/src/generated', 'server/src/generated', 'sdk-python/src/svc/generated'] as const;
const HEADER = '// DO NOT EDIT. Generated from openapi.yaml by `npm run codegen`.';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export async function generate(outRoot: string = ROOT): Promise<void> {
  const input = join(ROOT, 'openapi.yaml');
  for (const dir of GENERATED_DIRS) rmSync(join(outRoot, dir), { recursive: true, force: true });
  const header = () => [HEADER];
  await createClient([
    {
      input,
      output: { path: join(outRoot, 'sdk/src/generated'), header, importFileExtension: '.js' },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    },
    {
      input,
      output: { path: join(outRoot, 'server/src/generated'), header, importFileExtension: '.js' },
      plugins: ['@hey-api/typescript'],
      logs: { level: 'silent' },
    },
  ]);
  const doc = parse(readFileSync(input, 'utf8'));
  writeFileSync(join(outRoot, 'server/src/generated/operations.gen.ts'), operationTable(doc));
  // The document itself as JSON, which the service reads: every process parses the document as it starts, and
  // JSON parses many times faster than YAML.
  writeFileSync(join(outRoot, 'server/src/generated/openapi.gen.json'), `${JSON.stringify(doc)}\n`);
  generatePython(doc, join(outRoot, 'sdk-python/src/svc/generated'));
}

/** The route table: one row per operation, in document order, and the union of operation ids. */
function operationTable(doc: { paths: Record<string, Record<string, { operationId?: string }>> }): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      rows.push(`  { operationId: '${op.operationId}', method: '${method.toUpperCase()}', path: '${path}' },`);
    }
  }
  return [HEADER, '', 'export const operations = [', ...rows, '] as const;', '', "export type OperationId = (typeof operations)[number]['operationId'];", ''].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await generate();
  console.log(`generated ${GENERATED_DIRS.join(', ')}`);
}
