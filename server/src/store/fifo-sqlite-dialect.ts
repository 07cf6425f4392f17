// kysely's SQLite dialect with a FIFO hand-off for its single connection. The stock driver's mutex wakes every
// waiter on each release and lets them race for it again, so with 50 requests in flight each query pays for 50
// wake-ups; here a release hands the connection to exactly the next waiter, in arrival order.
import { SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

class FifoLock {
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
  private readonly lock = new FifoLock();
  private connection!: DatabaseConnection;

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
}

export class FifoSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new FifoSqliteDriver(this.settings);
  }
}
