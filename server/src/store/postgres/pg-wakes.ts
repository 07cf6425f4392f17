// Wakes between the processes sharing a Postgres store: NOTIFY on a channel of the store's schema
// (`svc_wake_<schema>`, so that stores in other schemas of one database never wake each other), which every
// process running loops LISTENs to. Both go over one connection of the process's own, outside the pool, opened
// at the first wake or listener: a notification must not wait for a pooled connection behind a burst of
// placements, and LISTEN needs a session that stays. Wakes of one topic are sent one at a time; those asked for
// while one is in flight become a single next one, so a burst of placements costs a few NOTIFYs, not one each.
// A process ignores its own notifications (its loops were woken at once). A lost connection is opened again a
// second later, and once it listens again every topic is woken here, for what was notified meanwhile.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { WAKE_TOPICS, type RemoteWakes, type WakeTopic } from '../wakes.js';

const RECONNECT_MS = 1000;
/** Postgres truncates identifiers, and refuses channel names, longer than this. */
const MAX_CHANNEL = 63;

export class PgWakes implements RemoteWakes {
  private readonly id = randomUUID();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private channel = '';
  private fire: ((topic: WakeTopic) => void) | null = null;
  private readonly inFlight = new Set<WakeTopic>();
  private readonly again = new Set<WakeTopic>();
  private closed = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly connectionString: string) {}

  send(topic: WakeTopic): void {
    if (this.closed) return;
    if (this.inFlight.has(topic)) {
      this.again.add(topic);
      return;
    }
    this.inFlight.add(topic);
    this.connection()
      .then((c) => c.query('select pg_notify($1, $2)', [this.channel, `${topic} ${this.id}`]))
      .catch(() => {}) // a hint only: the other processes' polls find the work
      .finally(() => {
        this.inFlight.delete(topic);
        if (this.again.delete(topic)) this.send(topic);
      });
  }

  listen(fire: (topic: WakeTopic) => void): void {
    if (this.fire) return;
    this.fire = fire;
    // A connection opened to send has not subscribed yet.
    const open = this.client;
    if (open) void this.subscribe(open).catch(() => open.emit('error', new Error('LISTEN failed')));
    else this.keepListening();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    const c = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    await c?.end().catch(() => {});
  }

  private keepListening(): void {
    if (this.closed) return;
    this.connection().catch(() => {
      if (!this.closed) this.retry = setTimeout(() => this.keepListening(), RECONNECT_MS);
    });
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async subscribe(c: pg.Client): Promise<void> {
    await c.query(`listen "${this.channel.replace(/"/g, '""')}"`);
    for (const topic of WAKE_TOPICS) this.fire?.(topic);
  }

  private async connect(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: this.connectionString });
    const lost = () => {
      if (this.client === c) this.client = null;
      void c.end().catch(() => {});
      if (this.fire) this.retry = setTimeout(() => this.keepListening(), RECONNECT_MS);
    };
    c.on('error', lost);
    try {
      await c.connect();
      const { rows } = await c.query<{ schema: string }>('select current_schema() as schema');
      this.channel = `svc_wake_${rows[0].schema}`.slice(0, MAX_CHANNEL);
      c.on('notification', (n) => {
        const [topic, from] = (n.payload ?? '').split(' ');
        if (n.channel === this.channel && from !== this.id && (WAKE_TOPICS as readonly string[]).includes(topic)) this.fire?.(topic as WakeTopic);
      });
      if (this.fire) await this.subscribe(c);
    } catch (err) {
      c.removeListener('error', lost);
      c.on('error', () => {});
      await c.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await c.end().catch(() => {});
      throw new Error('closed');
    }
    this.client = c;
    return c;
  }
}
