// transfer_call, as a tool of one call: offered after svc's own tools only on a call placed with a transfer; cold, it
// asks to leave by handing the line over to the number, once; warm, it checks the briefing, calls the person (noted
// in the turns), answers the model with how it went, and on a second call joins the two; a number listed since the
// placement, or a line that cannot hand over, is refused; one attempt a call; the person's line is let go when the
// session ends before the callee is joined.
import { expect } from 'chai';
import { pino } from 'pino';
import type { Consultation, ConsultOutcome, ConsultRequest, LiveLine } from '../../server/src/telephony/live-line.js';
import { CALL_TOOLS, type Handover, type ToolContext } from '../../server/src/voice-agent/tools.js';
import { MAX_BRIEFING_CHARS, TRANSFER_NOTES, transferTool, withTransfer } from '../../server/src/voice-agent/transfer.js';

const PERSON = '+14155550142';

/** A person's line whose outcome the test decides. */
function fakeConsultation(there = true) {
  let decide!: (o: ConsultOutcome) => void;
  const log: string[] = [];
  const c: Consultation = {
    outcome: new Promise((r) => (decide = r)),
    stillThere: async () => there,
    join: async () => void log.push('join'),
    release: async () => void log.push('release'),
  };
  return { c, decide: (o: ConsultOutcome) => decide(o), log };
}

function context(consultation?: Consultation, over: Partial<ToolContext> = {}) {
  const handovers: Handover[] = [];
  const notes: string[] = [];
  const requests: ConsultRequest[] = [];
  const transfers: string[] = [];
  const stop = new AbortController();
  const line = {
    transfer: async (to: string) => void transfers.push(to),
    consult: (request: ConsultRequest) => (requests.push(request), consultation!),
  } as unknown as LiveLine;
  const ctx: ToolContext = {
    callId: 'call-1',
    line,
    logger: pino({ level: 'silent' }),
    language: 'fr-FR',
    endCall: () => undefined,
    recordOptOut: async () => undefined,
    handOver: (h) => void handovers.push(h),
    note: (text) => void notes.push(text),
    listed: async () => false,
    signal: stop.signal,
    ...over,
  };
  return { ctx, handovers, notes, requests, transfers, stop };
}

describe('transfer_call', () => {
  it("is offered after svc's own tools only on a call placed with a transfer", () => {
    expect(withTransfer(null, CALL_TOOLS)).to.equal(CALL_TOOLS);
    expect(withTransfer(undefined, CALL_TOOLS)).to.equal(CALL_TOOLS);
    expect(withTransfer({ to: PERSON, mode: 'cold', when: 'x' }, CALL_TOOLS).offered.map((t) => t.name)).to.deep.equal([
      'end_call',
      'record_opt_out',
      'voicemail_detected',
      'press_keys',
      'wait_on_hold',
      'keep_listening',
      'transfer_call',
    ]);
    const warm = withTransfer({ to: PERSON, mode: 'warm', when: 'x' }, CALL_TOOLS).find('transfer_call')!;
    expect(warm.parameters).to.deep.include({ type: 'object', required: [] });
    expect(Object.keys((warm.parameters as { properties: object }).properties)).to.deep.equal(['briefing']);
  });

  describe('cold', () => {
    it('asks to leave by handing the line over to the number, once, answering the model nothing', async () => {
      const tool = transferTool({ to: PERSON, mode: 'cold', when: 'x' });
      const { ctx, handovers, transfers } = context();
      expect(await tool.run({}, ctx)).to.equal(undefined);
      expect(await tool.run({}, ctx)).to.equal(undefined);
      expect(handovers.map((h) => h.to)).to.deep.equal([PERSON]);
      await handovers[0]!.move();
      expect(transfers).to.deep.equal([PERSON]);
    });

    it('refuses a number on the do-not-call list now, and a line that cannot hand over, handing nothing over', async () => {
      const tool = transferTool({ to: PERSON, mode: 'cold', when: 'x' });
      const listed = context(undefined, { listed: async () => true });
      expect(await tool.run({}, listed.ctx)).to.deep.equal({ error: 'The transfer number may not be called. Tell the callee you cannot put them through, and carry on.' });
      expect(listed.handovers).to.deep.equal([]);
      const none = context(undefined, { handOver: undefined });
      expect(await tool.run({}, none.ctx)).to.deep.equal({ error: 'This line cannot transfer the call. Tell the callee you cannot put them through, and carry on.' });
    });
  });

  describe('warm', () => {
    const warm = () => transferTool({ to: PERSON, mode: 'warm', when: 'x' });

    it('calls nobody when the session ends before the person is called', async () => {
      const { c } = fakeConsultation();
      const { ctx, requests, stop } = context(c);
      const run = warm().run({ briefing: 'Jane Roe.' }, ctx);
      stop.abort();
      expect(await run).to.equal(undefined);
      expect(requests).to.deep.equal([]);
    });

    it("calls the person with the briefing in the call's language, tells the model they took it, and joins the two on the second call", async () => {
      const tool = warm();
      const { c, decide, log } = fakeConsultation();
      const { ctx, handovers, notes, requests } = context(c);
      const first = tool.run({ briefing: '  Jane Roe,\n about her   delivery. ' }, ctx);
      await new Promise((r) => setImmediate(r));
      expect(requests).to.deep.equal([{ to: PERSON, briefing: 'Jane Roe, about her delivery.', language: 'fr-FR' }]);
      expect(await tool.run({ briefing: 'again' }, ctx)).to.deep.equal({ error: 'The person is being called already: wait for the answer.' });
      decide('accepted');
      expect(await first).to.deep.equal({
        status: 'accepted',
        note: 'The person took the call and is waiting. Tell the callee in one short sentence that you are connecting them now, then call transfer_call again.',
      });
      expect(notes).to.deep.equal([TRANSFER_NOTES.calling('Jane Roe, about her delivery.'), '[the person took the call]']);
      expect(await tool.run({}, ctx)).to.equal(undefined);
      expect(handovers.map((h) => h.to)).to.deep.equal([PERSON]);
      await handovers[0]!.move();
      expect(log).to.deep.equal(['join']);
      // The session ends as the callee is joined: the person's line is not let go.
      ctx.signal!.dispatchEvent(new Event('abort'));
      expect(log).to.deep.equal(['join']);
    });

    for (const outcome of ['no_answer', 'declined', 'failed'] as const) {
      it(`answers the model ${outcome} when nobody took it, and refuses to try again`, async () => {
        const tool = warm();
        const { c, decide } = fakeConsultation();
        const { ctx, notes, handovers } = context(c);
        decide(outcome);
        expect(await tool.run({ briefing: 'Jane Roe.' }, ctx)).to.deep.equal({
          status: outcome,
          note: 'Nobody took the call. Tell the callee politely that nobody is available right now; then carry on with the objective, or say goodbye and call end_call. Do not try to transfer again.',
        });
        expect(notes[1]).to.equal(TRANSFER_NOTES.outcome[outcome]);
        expect(await tool.run({ briefing: 'Jane Roe.' }, ctx)).to.deep.equal({
          error: 'The transfer is over on this call: do not try again. Carry on with the objective, or say goodbye and call end_call.',
        });
        expect(handovers).to.deep.equal([]);
      });
    }

    it('tells the model when the person who took the call has hung up before they were joined', async () => {
      const tool = warm();
      const { c, decide } = fakeConsultation(false);
      const { ctx, handovers } = context(c);
      decide('accepted');
      await tool.run({ briefing: 'Jane Roe.' }, ctx);
      expect(await tool.run({}, ctx)).to.deep.equal({
        status: 'hung_up',
        note: 'The person hung up before you connected them. Tell the callee politely; then carry on, or say goodbye and call end_call.',
      });
      expect(handovers).to.deep.equal([]);
    });

    it('needs a briefing of at most 600 characters, and calls nobody without one', async () => {
      const tool = warm();
      const { c } = fakeConsultation();
      const { ctx, requests } = context(c);
      const missing = { error: 'Give a briefing for the person: who is on the line, why they called, and what you have learnt so far.' };
      for (const args of [{}, { briefing: '   ' }, { briefing: 42 }]) expect(await tool.run(args, ctx)).to.deep.equal(missing);
      expect(await tool.run({ briefing: 'x'.repeat(MAX_BRIEFING_CHARS + 1) }, ctx)).to.deep.equal({ error: 'The briefing must be at most 600 characters; make it shorter.' });
      expect(requests).to.deep.equal([]);
    });

    it("lets the person's line go when the session ends while they are called, or waiting to be joined", async () => {
      for (const accepted of [false, true]) {
        const tool = warm();
        const { c, decide, log } = fakeConsultation();
        const { ctx, stop } = context(c);
        const run = tool.run({ briefing: 'Jane Roe.' }, ctx);
        await new Promise((r) => setImmediate(r));
        if (accepted) {
          decide('accepted');
          await run;
        }
        stop.abort();
        expect(log, String(accepted)).to.deep.equal(['release']);
        if (!accepted) {
          decide('declined');
          expect(await run).to.equal(undefined);
        }
      }
    });
  });
});
