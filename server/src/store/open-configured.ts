// The store the configuration names: Postgres for a DATABASE_URL, else SQLite in the data folder.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { openStore, type Store } from './store.js';

export function storeFor(config: Config, poolSize?: number): Store {
  return openStore(config.databaseUrl ? { postgresUrl: config.databaseUrl, poolSize } : { sqlitePath: join(config.dataDir, 'svc.db') });
}
