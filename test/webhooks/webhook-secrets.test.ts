import { expect } from 'chai';
import { addNumber, createAccount, createKey } from '../../server/src/accounts/accounts-repo.js';
import { seedDevAccount } from '../../server/src/accounts/dev-seed.js';
import { rotateWebhookSecret, signingSecrets } from '../../server/src/accounts/webhook-secrets.js';
import { loadConfig } from '../../server/src/config.js';
import { forEachStore, freshStore, type TestStore } from '../support/stores.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const FIXED = 'whsec_fixedDevSecretForScripts_0123456789abcdef';

forEachStore('webhook secrets', (kind) => {
  let ts: TestStore;
  beforeEach(async () => {
    ts = await freshStore(kind);
  });
  afterEach(() => ts.drop());

  async function key() {
    const accountId = await createAccount(ts.store.db, { name: 'acme', planMinutes: 10 }, NOW);
    await addNumber(ts.store.db, accountId, '+14155550100', NOW);
    return (await createKey(ts.store.db, { accountId, name: 'k' }, NOW)).row;
  }
  const read = (id: string) => ts.store.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('issues each key a whsec_ secret of 32 random bytes', async () => {
    const a = await key();
    const b = await key();
    expect(a.webhook_secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(a.webhook_secret).not.to.equal(b.webhook_secret);
  });

  it('rotation makes a new secret current and keeps the old one until the overlap ends', async () => {
    const k = await key();
    const fresh = await rotateWebhookSecret(ts.store.db, k.id, NOW, 3600);
    expect(fresh).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await read(k.id);
    expect(row).to.include({ webhook_secret: fresh, previous_webhook_secret: k.webhook_secret, previous_secret_expires_at: NOW + 3600_000 });
    expect(signingSecrets(row, NOW + 3600_000 - 1)).to.deep.equal([fresh, k.webhook_secret]);
    expect(signingSecrets(row, NOW + 3600_000)).to.deep.equal([fresh]);
  });

  it('a second rotation during the overlap keeps only the one before it', async () => {
    const k = await key();
    const first = await rotateWebhookSecret(ts.store.db, k.id, NOW, 3600);
    const second = await rotateWebhookSecret(ts.store.db, k.id, NOW + 60_000, 3600);
    expect(signingSecrets(await read(k.id), NOW + 60_000)).to.deep.equal([second, first]);
  });

  it('answers null for an unknown key', async () => {
    expect(await rotateWebhookSecret(ts.store.db, '00000000-0000-4000-8000-000000000000', NOW, 3600)).to.equal(null);
  });

  it('SVC_DEV_WEBHOOK_SECRET fixes the dev key secret, on creation and on a later start', async () => {
    const first = await seedDevAccount(ts.store, loadConfig({}), NOW);
    expect(first.webhookSecret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    const again = await seedDevAccount(ts.store, loadConfig({ SVC_DEV_WEBHOOK_SECRET: FIXED }), NOW);
    expect(again.webhookSecret).to.equal(FIXED);
    const keys = await ts.store.db.selectFrom('api_keys').select('webhook_secret').where('account_id', '=', first.accountId).execute();
    expect(keys).to.deep.equal([{ webhook_secret: FIXED }]);
  });
});
