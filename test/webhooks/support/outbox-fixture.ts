// A store with one tenant (account, key, number) and helpers to write calls and their events the way the
// engine does: a call row, then its event's outbox row.
import type { CallEventName } from '../../../server/src/generated/types.gen.js';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import type { CallRow } from '../../../server/src/store/calls-repo.js';
import type { Store } from '../../../server/src/store/store.js';
import { eventRow } from '../../../server/src/webhooks/outbox.js';
import { insertTestCall } from '../../support/calls.js';
import type { TestTenant } from '../../support/server.js';

export interface Fixture {
  keyId: string;
  secret: string;
  /** Writes a completed call with this webhookUrl and its call.completed event; returns the eventId. */
  event(url: string, overrides?: Partial<CallRow>, name?: CallEventName): Promise<{ call: CallRow; eventId: string }>;
  /** Writes another event of the same call, built at `at`; returns its eventId. */
  laterEvent(call: CallRow, name: CallEventName, at: number): Promise<string>;
}

export async function seedFixture(store: Store, now: number): Promise<Fixture> {
  const accountId = await createAccount(store.db, { name: `hooks-${now}-${Math.random()}`, planMinutes: 1000 }, now);
  await addNumber(store.db, accountId, '+14155550100', now);
  const { row } = await createKey(store.db, { accountId, name: 'hooks' }, now);
  const tenant = { accountId, keyId: row.id, key: '', callerId: '+14155550100', api: undefined as never } satisfies TestTenant;
  return {
    keyId: row.id,
    secret: row.webhook_secret,
    async event(url, overrides = {}, name = 'call.completed') {
      const call = await insertTestCall(store, tenant, { created_at: now, updated_at: now, webhook_url: url, ...overrides });
      const row = eventRow(call, name, now);
      if (!row) throw new Error('no event was enqueued');
      await store.db.insertInto('webhook_events').values(row).execute();
      return { call, eventId: row.event_id };
    },
    async laterEvent(call, name, at) {
      const row = eventRow(call, name, at)!;
      await store.db.insertInto('webhook_events').values(row).execute();
      return row.event_id;
    },
  };
}
