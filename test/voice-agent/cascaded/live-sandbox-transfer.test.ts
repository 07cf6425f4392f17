// Transfers through the cascaded agent on the sandbox's live line, offline, across an api and a worker process
// sharing only the store: on 555-0128 the callee (espeak-ng audio) asks for a person, the scripted model behind the
// chat-model port calls transfer_call as the script says, and the line hands the callee over, calling the person
// first for a warm transfer (on the line's own call time), or finding that nobody answers 555-0129. Without a
// transfer the agent declines and goes on. The record says whether, to whom and when.
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addNumber, createAccount, createKey } from '../../../server/src/accounts/accounts-repo.js';
import { briefOf, speechMs } from '../../../server/src/conversation/conversation.js';
import { lexiconFor } from '../../../server/src/conversation/lexicon.js';
import { openStore } from '../../../server/src/store/open-store.js';
import { TRANSFER_RING_MS } from '../../../server/src/telephony/live-line.js';
import { migrate, type Store } from '../../../server/src/store/store.js';
import { scriptedConversation } from '../../../server/src/voice-agent/scripted-agent.js';
import { TRANSFER_NOTES } from '../../../server/src/voice-agent/transfer.js';
import { emptySchema, requirePostgres, type EmptySchema } from '../../scale/support/pg-schema.js';
import { startService, type ServiceProcess } from '../../scale/support/service-process.js';
import { until } from '../../support/until.js';

const ASKS_FOR_PERSON = '+14155550128';
const PERSON = '+14155550142';
const NEVER_ANSWERS = '+14155550129';
const TRANSFERS = {
  none: null,
  cold: { to: PERSON },
  warm: { to: PERSON, mode: 'warm' },
  unanswered: { to: NEVER_ANSWERS, mode: 'warm' },
} as const;
const lex = lexiconFor('en');

interface Turn {
  speaker: 'agent' | 'callee';
  text: string;
  startSec: number;
  endSec: number;
}
interface CallRecord {
  id: string;
  status: string;
  turns: Turn[] | null;
  durationSec: number | null;
  endedAt: string | null;
  transferredTo: string | null;
  transferredAt: string | null;
}

for (const kind of ['sqlite', 'postgres'] as const) {
  describe(`transfers by the cascaded agent on the sandbox's live line, across api and worker processes [${kind}]`, function () {
    this.timeout(240_000);
    let schema: EmptySchema | undefined;
    let dataDir: string;
    let store: Store;
    let processes: ServiceProcess[] = [];
    const calls = new Map<keyof typeof TRANSFERS, CallRecord>();

    /** The sandbox callee's and the scripted agent's lines for a call, from its row as the services read it. */
    const script = async (id: string) => {
      const row = await store.db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const turns = scriptedConversation(briefOf(row));
      return { callee: turns.filter((t) => t.speaker === 'callee').map((t) => t.text), agent: turns.filter((t) => t.speaker === 'agent').map((t) => t.text) };
    };
    const said = (c: CallRecord, speaker: Turn['speaker']) => c.turns!.filter((t) => t.speaker === speaker).map((t) => t.text);

    before(async function () {
      if (kind === 'postgres') {
        await requirePostgres(this);
        schema = await emptySchema();
      }
      dataDir = mkdtempSync(join(tmpdir(), 'svc-live-transfer-'));
      store = schema ? openStore({ postgresUrl: schema.url, poolSize: 2 }) : openStore({ sqlitePath: join(dataDir, 'svc.db') });
      await migrate(store);
      const now = Date.now();
      const accountId = await createAccount(store.db, { name: 'acme', planMinutes: 1000, defaultCallerId: '+14155550100' }, now);
      await addNumber(store.db, accountId, '+14155550100', now);
      const key = (await createKey(store.db, { accountId, name: 'acme', rateLimit: 100 }, now)).key;
      const env: Record<string, string> = {
        SVC_AGENT: 'cascaded',
        // Real time: the callee's gaps and the agent's synthesis are as on a real line, whatever else the machine does.
        SVC_SANDBOX_TIME_SCALE: '1',
        SVC_DATA_DIR: dataDir,
        SVC_ENGINE_POLL_MS: '50',
        ...(schema ? { DATABASE_URL: schema.url } : {}),
      };
      processes = await Promise.all([startService('api', env), startService('worker', env)]);
      const api = processes[0]!;
      const placed = new Map<keyof typeof TRANSFERS, string>();
      for (const [name, transfer] of Object.entries(TRANSFERS) as Array<[keyof typeof TRANSFERS, (typeof TRANSFERS)[keyof typeof TRANSFERS]]>) {
        const res = await fetch(`${api.url}/v1/agent/calls`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ to: ASKS_FOR_PERSON, objective: 'Ask whether the shop is open on Sunday.', fields: [{ name: 'open_sunday', type: 'boolean' }], transfer }),
        });
        expect(res.status).to.equal(202);
        placed.set(name, ((await res.json()) as { callId: string }).callId);
      }
      await until(
        'every call ended',
        async () => {
          for (const [name, id] of placed) {
            const res = await fetch(`${api.url}/v1/agent/calls/${id}`, { headers: { authorization: `Bearer ${key}` } });
            calls.set(name, (await res.json()) as CallRecord);
          }
          return [...calls.values()].every((c) => c.status !== 'queued' && c.status !== 'dialing' && c.status !== 'in_progress');
        },
        200_000,
        250,
      );
    });
    after(async () => {
      await Promise.all(processes.map((p) => p.kill()));
      await store?.close();
      await schema?.drop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('hands a cold transfer over once the agent has said it is transferring: completed, transferred, when the agent left', async () => {
      const call = calls.get('cold')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: PERSON, transferredAt: call.endedAt });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent.slice(-2)).to.deep.equal([lex.agent.transferring, TRANSFER_NOTES.transferred]);
      // The callee's thanks comes after the handover: the line is the person's by then.
      expect(said(call, 'callee')).to.deep.equal(callee.slice(0, -1));
      // The agent left once its words had played: the handover is the last turn.
      expect(call.turns!.at(-1)!.startSec).to.be.at.least(call.turns!.at(-2)!.endSec);
    });

    it('calls the person of a warm transfer while the callee holds, briefs them, and joins the two once they take it', async () => {
      const call = calls.get('warm')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: PERSON, transferredAt: call.endedAt });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent.slice(1)).to.deep.equal([
        lex.agent.holdForTransfer,
        TRANSFER_NOTES.calling(lex.agent.briefing('Ask whether the shop is open on Sunday')),
        TRANSFER_NOTES.outcome.accepted,
        lex.agent.connecting,
        TRANSFER_NOTES.transferred,
      ]);
      expect(said(call, 'callee')).to.deep.equal(callee);
      // On the line's call time, the person's phone rang 4 s, they heard the briefing and the prompt at the speaking
      // rate, and pressed 1 a second later.
      const heard = speechMs(`${lex.agent.briefing('Ask whether the shop is open on Sunday')} ${lex.agent.takeCallPrompt}`);
      const notes = call.turns!.filter((t) => t.text.startsWith('['));
      expect(Math.round((notes[1]!.startSec - notes[0]!.startSec) * 1000)).to.be.within(4000 + heard + 1000, 4000 + heard + 1000 + 200);
    });

    it('tells the callee when nobody answers the transfer number (555-0129), and goes on with the objective', async () => {
      const call = calls.get('unanswered')!;
      const { callee, agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: null, transferredAt: null });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent[3]).to.equal(TRANSFER_NOTES.outcome.no_answer);
      expect(agent[4]!.startsWith(lex.agent.transferFailed)).to.equal(true);
      // The agent hangs up once its goodbye has played: the callee's own goodbye is said only if the hang-up is slow.
      const heard = said(call, 'callee');
      expect(heard).to.deep.equal(callee.slice(0, heard.length));
      expect(heard.length).to.be.at.least(callee.length - 1);
      // The person's phone rang out: TRANSFER_RING_MS of the line's call time.
      const notes = call.turns!.filter((t) => t.text.startsWith('['));
      expect(Math.round((notes[1]!.startSec - notes[0]!.startSec) * 1000)).to.be.within(TRANSFER_RING_MS, TRANSFER_RING_MS + 200);
    });

    it('declines politely on a call placed without a transfer, and goes on', async () => {
      const call = calls.get('none')!;
      const { agent } = await script(call.id);
      expect(call).to.include({ status: 'completed', transferredTo: null });
      expect(said(call, 'agent')).to.deep.equal(agent);
      expect(agent[1]!.startsWith(lex.agent.declineTransfer)).to.equal(true);
    });
  });
}
