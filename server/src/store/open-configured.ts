// The store the configuration names: Postgres for a DATABASE_URL, else SQLite in the data folder.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { openStore, type CheckpointSettings, type Store } from './store.js';

/** The SQLite checkpoint settings apply to a SQLite store only (the running service sets them; see store.ts). */
export interface StoreOptions extends CheckpointSettings {
  /** Overrides SVC_PG_POOL_MAX (the CLI needs one connection). */
  poolSize?: number;
}

export function storeFor(config: Config, { poolSize, checkpointInBackground, onCheckpointError }: StoreOptions = {}): Store {
  if (!config.databaseUrl) return openStore({ sqlitePath: join(config.dataDir, 'svc.db'), checkpointInBackground, onCheckpointError });
  return openStore({
    postgresUrl: config.databaseUrl,
    poolSize: poolSize ?? config.pgPoolMax,
    idleTimeoutMs: config.pgIdleTimeoutMs,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
}
