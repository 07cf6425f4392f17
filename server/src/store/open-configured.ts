// The store the configuration names: Postgres for a DATABASE_URL, else SQLite in the data folder.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { openStore, type Store } from './store.js';

/** `poolSize` overrides SVC_PG_POOL_MAX (the CLI needs one connection). */
export function storeFor(config: Config, poolSize?: number): Store {
  if (!config.databaseUrl) return openStore({ sqlitePath: join(config.dataDir, 'svc.db') });
  return openStore({
    postgresUrl: config.databaseUrl,
    poolSize: poolSize ?? config.pgPoolMax,
    idleTimeoutMs: config.pgIdleTimeoutMs,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
}
