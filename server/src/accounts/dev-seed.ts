// The dev account of the embedded default: created on first start, found again on every later start. It owns
// one caller number (its default caller id) and has one key. SVC_DEV_API_KEY fixes the key for scripts;
// otherwise a random key is made when the account is created and printed once, since only its hash is kept.
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';
import { setDefaultCallerId } from '../store/accounts/accounts.js';
import { activeKeysOf, setKeyLimitAndSecret } from '../store/accounts/api-keys.js';
import { addNumber, createAccount, createKey, findAccountByName } from './accounts-repo.js';
import { hashApiKey } from './secrets.js';

const DEV_ACCOUNT_NAME = 'dev';

export interface DevSeed {
  accountId: string;
  /** The key in clear when it is known this run (fixed by config, or just created); null otherwise. */
  apiKey: string | null;
  webhookSecret: string;
  created: boolean;
}

/**
 * Several processes may start together on a fresh database: one seeds, the others wait for its lock and then find
 * what it made.
 */
export async function seedDevAccount(store: Store, config: Config, now: number): Promise<DevSeed> {
  return store.locked('svc:dev-seed', async (trx) => {
    const account = await findAccountByName(trx, DEV_ACCOUNT_NAME);
    const created = !account;
    const accountId = account?.id ?? (await createAccount(trx, { name: DEV_ACCOUNT_NAME, planMinutes: config.devPlanMinutes, defaultCallerId: config.devCallerId }, now));
    await addNumber(trx, accountId, config.devCallerId, now);
    await setDefaultCallerId(trx, accountId, config.devCallerId);

    const keys = await activeKeysOf(trx, accountId);
    const fixed = config.devApiKey;
    let existing = fixed ? keys.find((k) => k.key_hash === hashApiKey(fixed)) : keys[0];
    let apiKey: string | null = null;
    if (!existing) {
      const made = await createKey(trx, { accountId, name: 'dev', key: fixed ?? undefined, rateLimit: config.devRateLimit }, now);
      existing = made.row;
      apiKey = made.key;
    } else {
      apiKey = fixed;
    }
    // SVC_DEV_WEBHOOK_SECRET fixes the secret so scripts can verify deliveries; it replaces whatever was there.
    const webhookSecret = config.devWebhookSecret ?? existing.webhook_secret;
    await setKeyLimitAndSecret(trx, existing.id, config.devRateLimit, webhookSecret);
    return { accountId, apiKey, webhookSecret, created };
  });
}
