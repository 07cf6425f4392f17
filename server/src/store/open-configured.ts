// The store the configuration names: Postgres for a DATABASE_URL, else SQLite in the data folder.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { openStore, type Store } from './store.js';

export interface StoreOptions {
  /** Overrides SVC_PG_POOL_MAX (the CLI needs one connection). */
  poolSize?: number;
  /** SQLite: checkpoint the write-ahead log on a worker thread (the running service; see wal-checkpointer.ts). */
  checkpointInBackground?: boolean;
  onCheckpointError?(message: string): void;
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
