// kysely's SQLite dialect with a FIFO hand-off for its single connection, and transactions that begin IMMEDIATE.
// The stock driver's mutex wakes every waiter on each release and lets them race for it again, so with 50
// requests in flight each query pays for 50 wake-ups; here a release hands the connection to exactly the next
// waiter, in arrival order.
import { CompiledQuery, SqliteAdapter, SqliteDialect, SqliteDriver, type DatabaseConnection, type DialectAdapter, type Driver, type SqliteDialectConfig } from 'kysely';

export class FifoLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

class FifoSqliteDriver extends SqliteDriver {
  private connection!: DatabaseConnection;

  constructor(
    settings: SqliteDialectConfig,
    private readonly lock: FifoLock,
  ) {
    super(settings);
  }

  override async init(): Promise<void> {
    await super.init();
    // Take the stock driver's one connection once; from here on the FIFO lock guards it.
    this.connection = await super.acquireConnection();
    await super.releaseConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire();
    return this.connection;
  }

  override async releaseConnection(): Promise<void> {
    this.lock.release();
  }

  /**
   * IMMEDIATE: a transaction takes the write lock when it begins, so transactions of several processes queue on
   * busy_timeout instead of failing with SQLITE_BUSY when a reader upgrades.
   */
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** SQLite runs DDL in transactions; so migrations run in one, and processes migrating at once take turns. */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class FifoSqliteDialect extends SqliteDialect {
  /** `lock` guards the one connection; share it with anything else that uses the same connection. */
  constructor(
    private readonly settings: SqliteDialectConfig,
    readonly lock = new FifoLock(),
  ) {
    super(settings);
  }

  override createDriver(): Driver {
    return new FifoSqliteDriver(this.settings, this.lock);
  }

  override createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}
