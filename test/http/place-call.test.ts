import { expect } from 'chai';
import { forEachStore } from '../support/stores.js';
import { startServer, type TestServer, type TestTenant } from '../support/server.js';
import { refusedFor } from '../support/problems.js';

const ok = { to: '+14155550123', objective: 'Ask whether the shop is open on Sunday and until what time.' };

forEachStore('placing a call', (kind) => {
  let srv: TestServer;
  let alice: TestTenant;
  beforeEach(async () => {
    srv = await startServer(kind);
    alice = await srv.tenant({ rateLimit: 1000 });
  });
  afterEach(() => srv.close());

  const callCount = async () =>
    Number(
      (
        await srv.deps.store.db
          .selectFrom('calls')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers 202 with Location, rate-limit headers and the queued call, which exists before the response', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, fields: [{ name: 'open_sunday', type: 'boolean' }] } });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal({ callId: res.body.callId, status: 'queued', language: 'en-US', languageSource: 'inferred', voice: 'alloy' });
    expect(res.headers.get('location')).to.equal(`/agent/calls/${res.body.callId}`);
    expect(res.headers.get('ratelimit-remaining')).to.equal('999');
    const row = await srv.deps.store.db.selectFrom('calls').selectAll().where('id', '=', res.body.callId).executeTakeFirstOrThrow();
    expect(row).to.include({ status: 'queued', to_number: '+14155550123', caller_id: alice.callerId, voice: 'alloy', language: 'en-US', language_source: 'inferred', api_key_id: alice.keyId });
    expect(JSON.parse(row.fields_json!)).to.deep.equal([{ name: 'open_sunday', type: 'boolean' }]);
    const read = await alice.api.get(`/v1/agent/calls/${res.body.callId}`);
    expect(read.body).to.include({ id: res.body.callId, status: 'queued', to: '+14155550123', voice: 'alloy', language: 'en-US', languageSource: 'inferred' });
  });

  const rejections: [string, Record<string, unknown>, string][] = [
    ['a missing to', { objective: ok.objective }, 'to_required'],
    ['a null to', { to: null, objective: ok.objective }, 'to_required'],
    ['a blank to', { to: '  ', objective: ok.objective }, 'to_required'],
    ['a missing objective', { to: ok.to }, 'objective_required'],
    ['an empty objective', { to: ok.to, objective: '' }, 'objective_required'],
    ['a whitespace objective', { to: ok.to, objective: ' \n\t ' }, 'objective_required'],
    ['a number with spaces', { ...ok, to: '+1 415 555 0123' }, 'invalid_number'],
    ['a number without +', { ...ok, to: '14155550123' }, 'invalid_number'],
    ['a number that is not valid for its country', { ...ok, to: '+11234567890' }, 'invalid_number'],
    ['a to that is a JSON number', { ...ok, to: 14155550123 }, 'invalid_number'],
    ['an objective that is not a string', { ...ok, objective: ['call'] }, 'invalid_objective'],
    ['an objective over 4000 characters', { ...ok, objective: 'a'.repeat(4001) }, 'invalid_objective'],
    ['a context that is not a string', { ...ok, context: { notes: 1 } }, 'invalid_context'],
    ['a context that is a number', { ...ok, context: 5 }, 'invalid_context'],
    ['fields that are not an array', { ...ok, fields: { name: 'x' } }, 'invalid_fields'],
    ['more than 20 fields', { ...ok, fields: Array.from({ length: 21 }, (_, i) => ({ name: `f${i}` })) }, 'invalid_fields'],
    ['a field without a name', { ...ok, fields: [{ type: 'string' }] }, 'invalid_fields'],
    ['a field of unknown type', { ...ok, fields: [{ name: 'age', type: 'integer' }] }, 'invalid_fields'],
    ['duplicate field names', { ...ok, fields: [{ name: 'a' }, { name: 'a', type: 'number' }] }, 'invalid_fields'],
    ['a field name with spaces', { ...ok, fields: [{ name: 'open on sunday' }] }, 'invalid_fields'],
    ['a callerId that is not E.164', { ...ok, callerId: '415-555-0100' }, 'invalid_caller_id'],
    ['a callerId that is a number', { ...ok, callerId: 14155550100 }, 'invalid_caller_id'],
    ['an http webhookUrl', { ...ok, webhookUrl: 'http://example.com/hook' }, 'invalid_webhook_url'],
    ['a webhookUrl that is not a URL', { ...ok, webhookUrl: 'not a url' }, 'invalid_webhook_url'],
    ['a webhookUrl with credentials', { ...ok, webhookUrl: 'https://user:pw@example.com/hook' }, 'invalid_webhook_url'],
    ['an unknown field', { ...ok, webhook_url: 'https://example.com/hook' }, 'unknown_field'],
    ['an unknown voice', { ...ok, voice: 'gravel' }, 'invalid_voice'],
    ['an unsupported language', { ...ok, language: 'zu-ZA' }, 'invalid_language'],
    ['a malformed language', { ...ok, language: 'en_US!' }, 'invalid_language'],
    ['a Jersey number', { ...ok, to: '+441534123456' }, 'destination_blocked'],
    ['a callerId not on the account', { ...ok, callerId: '+14155550199' }, 'caller_id_not_owned'],
  ];
  for (const [what, body, token] of rejections) {
    it(`rejects ${what} with 400 ${token} and creates nothing`, async () => {
      const res = await alice.api.post('/v1/agent/calls', { body });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal(token);
      expect(res.body.message).to.be.a('string').and.not.equal('');
      expect(await callCount()).to.equal(0);
    });
  }

  it('rejects a body that is a JSON array with 400 invalid_body', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: [ok] });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal(refusedFor({ error: 'invalid_body', message: 'The request body must be a JSON object.', field: '' }));
  });

  it('rejects an empty body with 400 invalid_body', async () => {
    const res = await alice.api.post('/v1/agent/calls', { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('invalid_body');
  });

  it('names the unknown field in the message, and the field it most likely meant', async () => {
    for (const [field, meant] of [
      ['webhook_url', 'webhookUrl'],
      ['CallerID', 'callerId'],
      ['objectve', 'objective'],
      ['feilds', 'fields'],
    ]) {
      const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, [field]: 'x' } });
      expect(res.body).to.deep.equal(
        refusedFor({ error: 'unknown_field', message: `Unknown field \`${field}\`; did you mean \`${meant}\`? See the request schema for the fields this version accepts.`, field }),
      );
    }
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, priority: 'high' } });
    expect(res.body.message).to.equal('Unknown field `priority`; see the request schema for the fields this version accepts.');
  });

  it('lists the valid voices when the voice is unknown', async () => {
    const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, voice: 'gravel' } });
    expect(res.status).to.equal(400);
    expect(res.body).to.deep.equal(
      refusedFor({ error: 'invalid_voice', message: 'Unknown voice "gravel"; valid voices: alloy, ash, ballad, coral, echo, sage, shimmer, verse, marin, cedar.', field: 'voice' }),
    );
  });

  it('takes the current voices marin and cedar, any case, spelled as the catalogue spells them', async () => {
    for (const [asked, stored] of [
      ['marin', 'marin'],
      ['Cedar', 'cedar'],
      ['alloy', 'alloy'],
    ]) {
      const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, voice: asked } });
      expect(res.status, asked).to.equal(202);
      expect((await alice.api.get(`/v1/agent/calls/${res.body.callId}`)).body.voice, asked).to.equal(stored);
    }
  });

  describe('precedence', () => {
    const ladder: [string, Record<string, unknown>][] = [
      ['to_required', { fields: 'x', context: 1 }],
      ['objective_required', { to: 'bad', fields: 'x', context: 1 }],
      ['invalid_number', { to: 'bad', objective: 7, context: 1, fields: 'x' }],
      ['invalid_objective', { to: ok.to, objective: 7, context: 1, fields: 'x' }],
      ['invalid_context', { ...ok, context: 1, fields: 'x', callerId: 'x' }],
      ['invalid_fields', { ...ok, fields: 'x', callerId: 'x', webhookUrl: 'ftp://x' }],
      ['invalid_caller_id', { ...ok, callerId: 'x', webhookUrl: 'ftp://x', extra: 1 }],
      ['invalid_webhook_url', { ...ok, webhookUrl: 'ftp://x', extra: 1, voice: 'nope' }],
      ['unknown_field', { ...ok, extra: 1, voice: 'nope', language: 'zz' }],
      ['invalid_voice', { ...ok, voice: 'nope', language: 'zz', to: '+441534123456' }],
      ['invalid_language', { ...ok, language: 'zz', to: '+441534123456', callerId: '+14155550199' }],
      ['destination_blocked', { ...ok, to: '+441534123456', callerId: '+14155550199' }],
      ['caller_id_not_owned', { ...ok, callerId: '+14155550199' }],
    ];
    for (const [token, body] of ladder) {
      it(`reports ${token} before every later failure`, async () => {
        const res = await alice.api.post('/v1/agent/calls', { body });
        expect(res.status).to.equal(400);
        expect(res.body.error).to.equal(token);
      });
    }
  });

  describe('caller id', () => {
    it("uses the key's default caller id when the request names none", async () => {
      const bob = await srv.tenant({ callerId: '+14155550111', accountCallerId: '+14155550111' });
      await srv.deps.store.db.insertInto('numbers').values({ account_id: bob.accountId, e164: '+14155550122', created_at: 0 }).execute();
      await srv.deps.store.db.updateTable('api_keys').set({ default_caller_id: '+14155550122' }).where('id', '=', bob.keyId).execute();
      const res = await bob.api.post('/v1/agent/calls', { body: ok });
      expect(res.status).to.equal(202);
      const row = await srv.deps.store.db.selectFrom('calls').select('caller_id').where('id', '=', res.body.callId).executeTakeFirstOrThrow();
      expect(row.caller_id).to.equal('+14155550122');
    });

    it("falls back to the account's default caller id", async () => {
      const res = await alice.api.post('/v1/agent/calls', { body: ok });
      const row = await srv.deps.store.db.selectFrom('calls').select('caller_id').where('id', '=', res.body.callId).executeTakeFirstOrThrow();
      expect(row.caller_id).to.equal(alice.callerId);
    });

    it('accepts an explicit callerId the account owns', async () => {
      await srv.deps.store.db.insertInto('numbers').values({ account_id: alice.accountId, e164: '+14155550133', created_at: 0 }).execute();
      const res = await alice.api.post('/v1/agent/calls', { body: { ...ok, callerId: '+14155550133' } });
      expect(res.status).to.equal(202);
    });

    it('rejects with caller_id_not_owned when neither the key nor the account has a default', async () => {
      const carol = await srv.tenant({ accountCallerId: null });
      const res = await carol.api.post('/v1/agent/calls', { body: ok });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.equal('caller_id_not_owned');
    });

    it("rejects the key's default caller id when the account no longer owns it", async () => {
      await srv.deps.store.db.updateTable('api_keys').set({ default_caller_id: '+14155550177' }).where('id', '=', alice.keyId).execute();
      const res = await alice.api.post('/v1/agent/calls', { body: ok });
      expect(res.body.error).to.equal('caller_id_not_owned');
    });
  });

  describe('voice', () => {
    it('uses the requested voice', async () => {
      expect((await alice.api.post('/v1/agent/calls', { body: { ...ok, voice: 'coral' } })).body.voice).to.equal('coral');
    });
    it("falls back to the key's voice, then the platform default", async () => {
      const dave = await srv.tenant({ defaultVoice: 'sage' });
      expect((await dave.api.post('/v1/agent/calls', { body: ok })).body.voice).to.equal('sage');
      expect((await alice.api.post('/v1/agent/calls', { body: ok })).body.voice).to.equal('alloy');
    });
  });

  describe('language', () => {
    const place = async (body: Record<string, unknown>) => (await alice.api.post('/v1/agent/calls', { body: { ...ok, ...body } })).body;
    it('canonicalises an explicit code: en-us becomes en-US, source explicit', async () => {
      expect(await place({ language: 'en-us' })).to.include({ language: 'en-US', languageSource: 'explicit' });
    });
    it('answers auto with the destination country’s main language: he-IL for Israel, en-GB for Britain', async () => {
      expect(await place({ language: 'auto', to: '+97231234567' })).to.include({ language: 'he-IL', languageSource: 'auto' });
      expect(await place({ language: 'auto', to: '+442079460123' })).to.include({ language: 'en-GB', languageSource: 'auto' });
    });
    it('infers English to a British number as en-GB', async () => {
      expect(await place({ to: '+442079460000', objective: 'Please call the restaurant and book a table for four people on Friday evening.' })).to.include({
        language: 'en-GB',
        languageSource: 'inferred',
      });
    });
    const inferred: [string, string][] = [
      ['he', 'התקשר למרפאת השיניים ובקש להזיז את התור שלי ליום שלישי הבא אחר הצהריים'],
      ['fr', 'Appelez le restaurant et réservez une table pour quatre personnes vendredi soir, s’il vous plaît.'],
      ['es', 'Llama al restaurante y reserva una mesa para cuatro personas el viernes por la noche, por favor.'],
      ['de', 'Rufen Sie das Restaurant an und reservieren Sie bitte einen Tisch für vier Personen am Freitagabend.'],
    ];
    for (const [lang, objective] of inferred) {
      it(`infers ${lang} from the objective`, async () => {
        const body = await place({ objective });
        expect(body.languageSource).to.equal('inferred');
        expect(body.language.split('-')[0]).to.equal(lang);
      });
    }
    it('falls back to auto for an objective too short to tell', async () => {
      expect(await place({ objective: 'hi' })).to.include({ language: 'en-US', languageSource: 'auto' });
    });
  });
});
