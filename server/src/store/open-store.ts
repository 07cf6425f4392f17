// Opens a store: SQLite for a file (or ':memory:', or a database's image), Postgres for a postgres:// URL; storeFor
// picks the one the configuration names.
import { join } from 'node:path';
import type { Config } from '../config.js';
import { openPostgres, type PoolSettings } from './postgres/postgres-driver.js';
import { openSqlite, type CheckpointSettings } from './sqlite/sqlite-driver.js';
import type { Store } from './store.js';

export type StoreTarget = ({ sqlitePath: string | Buffer; busyTimeoutMs?: number } & CheckpointSettings) | ({ postgresUrl: string } & PoolSettings);

export function openStore(target: StoreTarget): Store {
  return 'sqlitePath' in target ? openSqlite(target) : openPostgres(target);
}

/** The SQLite checkpoint settings apply to a SQLite store only (the running service sets them). */
export interface StoreOptions extends CheckpointSettings {
  /** Overrides SVC_PG_POOL_MAX (the CLI needs one connection). */
  poolSize?: number;
}

/** The store the configuration names: Postgres for a DATABASE_URL, else SQLite in the data folder. */
export function storeFor(config: Config, { poolSize, checkpointInBackground, onCheckpointError }: StoreOptions = {}): Store {
  if (!config.databaseUrl) return openStore({ sqlitePath: join(config.dataDir, 'svc.db'), checkpointInBackground, onCheckpointError });
  return openStore({
    postgresUrl: config.databaseUrl,
    poolSize: poolSize ?? config.pgPoolMax,
    idleTimeoutMs: config.pgIdleTimeoutMs,
    connectTimeoutMs: config.pgConnectTimeoutMs,
  });
}
