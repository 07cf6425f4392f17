// Ordered migrations, run by kysely's Migrator (which takes a lock, so several processes may start at once).
// Column types are chosen to mean the same on SQLite and Postgres; times are epoch-millisecond bigints.
import type { Migration, MigrationProvider } from 'kysely';
import { m001Initial } from './001-initial.js';
import { m002Engine } from './002-engine.js';
import { m003WebhookOutbox } from './003-webhook-outbox.js';
import { m004SandboxDials } from './004-sandbox-dials.js';
import { m005LiveCalls } from './005-live-calls.js';

export const migrations: Record<string, Migration> = {
  '001_initial': m001Initial,
  '002_engine': m002Engine,
  '003_webhook_outbox': m003WebhookOutbox,
  '004_sandbox_dials': m004SandboxDials,
  '005_live_calls': m005LiveCalls,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
