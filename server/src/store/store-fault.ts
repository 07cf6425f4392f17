// Which errors mean "the store is unreachable or busy" (503 store_error, retry later) rather than a bug (500).
const SQLITE_TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);
// Postgres SQLSTATE classes 08 (connection), 53 (insufficient resources), 57P (operator intervention), and
// 40001/40P01 (serialization failure, deadlock): all transient.
const PG_TRANSIENT = /^(08|53|57P|40001|40P01)/;
const MESSAGES = [
  /database connection is not open/i,
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /driver has already been destroyed/i,
  /Cannot use a pool after calling end/i,
];

export function isStoreFault(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Extended SQLite codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT) share the primary code's meaning.
    const sqlitePrimary = /^SQLITE_[A-Z]+/.exec(code)?.[0];
    if (sqlitePrimary && SQLITE_TRANSIENT.has(sqlitePrimary)) return true;
    if (NET_CODES.has(code) || PG_TRANSIENT.test(code)) return true;
  }
  if (err instanceof AggregateError && err.errors.some(isStoreFault)) return true;
  return MESSAGES.some((re) => re.test(err.message));
}
