// Waiting on hold with the cascaded agent, its model an OpenAI-compatible server (the fake chat-completions stream):
// once the model calls wait_on_hold it is answered and not asked again, and no request reaches it while the line
// plays its music, however long (no greeting, no silence prompt, no noise); the callee's words wake it, and it
// answers a person (the hold is then a turn, `[waiting on hold]`, up to their words) or waits again through a
// recording. A hold past the call's budget is recorded and hung up. Keys pressed and menus: press_keys and
// keep_listening are answered without asking the model to go on. The line is a recording stand-in, the ears a
// stand-in a test tells what it hears.
import { expect } from 'chai';
import { pino } from 'pino';
import { OpenAiCompatibleChatModel } from '../../../server/src/chat-model/openai-compatible.js';
import type { LineBrief, TimedTurn } from '../../../server/src/conversation/conversation.js';
import type { AgentHangUp, Consultation, LiveLine } from '../../../server/src/telephony/live-line.js';
import { CascadedSession } from '../../../server/src/voice-agent/cascaded/cascaded-session.js';
import type { EarEvent } from '../../../server/src/voice-agent/cascaded/ears.js';
import { CALL_TOOLS } from '../../../server/src/voice-agent/tools.js';
import { TurnLedger } from '../../../server/src/voice-agent/turn-ledger.js';
import { type FakeChatStream, startFakeChatStream } from '../../support/fake-chat-stream.js';
import { until } from '../../support/until.js';
import { ScriptedEars, silentRecognizer as recognizer, tenthSecondVoice as voice } from './session-rig.js';

const BRIEF: LineBrief = { callId: 'call-hold-1', to: '+14155550127', objective: 'Ask whether the shop is open on Sunday.', context: null, fields: [], language: 'en-US', voice: 'alloy' };
const logger = pino({ level: process.env.SVC_TEST_LOG ?? 'silent' });
const HOLD = 'Thank you for calling. Please hold; your call is important to us.';

/** A line that records what the session does to it, every mark answered at once. */
class TestLine implements LiveLine {
  readonly events: string[] = [];
  session: CascadedSession | null = null;
  hungUp: AgentHangUp | null = null;
  play(payload: string): void {
    this.events.push(`play ${Buffer.from(payload, 'base64').length}`);
  }
  mark(name: string): void {
    setImmediate(() => this.session?.marked(name));
  }
  clear(): void {
    this.events.push('clear');
  }
  sendDigits(digits: string): void {
    this.events.push(`digits ${digits}`);
  }
  async hangUp(reason: AgentHangUp): Promise<void> {
    this.hungUp = reason;
  }
  async transfer(): Promise<void> {}
  consult(): Consultation {
    return { outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined };
  }
}

const waitOnHold = (id: string) => ({ calls: [{ id, name: 'wait_on_hold', arguments: ['{}'] }] });

describe('waiting on hold with the cascaded agent', () => {
  let fake: FakeChatStream;
  let line: TestLine;
  let session: CascadedSession;
  let turns: TimedTurn[];
  let heardMs: number;
  let ears: ScriptedEars;
  let timeouts: number;
  afterEach(async () => {
    await session?.ended();
    await fake?.close();
  });

  async function start(brief: Partial<LineBrief> = {}): Promise<void> {
    fake = await startFakeChatStream({ flavour: 'openai', apiKey: 'sk-chat-test' });
    line = new TestLine();
    turns = [];
    heardMs = 0;
    timeouts = 0;
    ears = new ScriptedEars();
    // Kept in their order on the record (the order they began in), not the order they were written in.
    const ledger = new TurnLedger(line, async (seq, turn) => void (turns[seq] = turn), logger, BRIEF.callId);
    session = new CascadedSession(
      { ...BRIEF, ...brief },
      line,
      ledger,
      ears,
      CALL_TOOLS,
      { recognizer, model: new OpenAiCompatibleChatModel({ baseUrl: fake.baseUrl, apiKey: 'sk-chat-test', model: 'gpt-test' }), voice, voiceName: null },
      { greetAfterMs: 1_000_000, silence: { promptMs: 5000, hangUpMs: 5000 } },
      {
        recordOptOut: async () => undefined,
        recordFailure: async () => undefined,
        recordHoldTimeout: async () => void timeouts++,
        apology: () => Promise.reject(new Error('no apology in this test')),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      },
      logger,
    );
    line.session = session;
  }

  /** `ms` of the callee's line, in 20 ms frames; `events`, if any, heard with the first. */
  function hear(ms: number, events: EarEvent[] = []): void {
    ears.next = events;
    for (let at = 0; at < ms; at += 20) {
      session.heard(Buffer.alloc(160, 0x7e).toString('base64'), heardMs);
      heardMs += 20;
    }
  }
  /** The callee speaks for `ms`: their turn, with these words, ends there and is heard with the next frame. */
  function say(text: string, ms: number): void {
    const startMs = heardMs;
    hear(ms, [{ type: 'speech_started', atMs: startMs }]);
    hear(20, [{ type: 'turn_ended', text, startMs, endMs: heardMs }]);
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  /** The turns written, in order (a turn with no words, noise, is never written). */
  const said = () => turns.filter((t) => t !== undefined);

  it('asks the model nothing while on hold, silence prompt and noise included, then answers the person who comes on', async () => {
    await start();
    fake.reply(waitOnHold('call_H1'), { text: ['Hi, this is an assistant calling about Sunday.'] });
    say(HOLD, 3000);
    await until('the model asked', () => fake.requests.length === 1);
    await settle();
    // Answered and not asked again; a minute of music, a noise the detector took for speech: nothing asked.
    hear(60_000);
    say('', 300);
    hear(1000);
    await settle();
    expect(fake.requests).to.have.length(1);
    expect(line.events.filter((e) => e.startsWith('play'))).to.deep.equal([]);
    const personAt = heardMs;
    say('Hello, thanks for holding, this is Sam.', 1500);
    await until('the person answered', () => fake.requests.length === 2 && line.events.includes('play 800'));
    expect(fake.requests[1]!.body.messages.slice(1)).to.deep.equal([
      { role: 'user', content: HOLD },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_H1', type: 'function', function: { name: 'wait_on_hold', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_H1', content: '{"waiting":true}' },
      { role: 'user', content: 'Hello, thanks for holding, this is Sam.' },
    ]);
    await session.ended();
    expect(said().map((t) => [t.speaker, t.text])).to.deep.equal([
      ['callee', HOLD],
      ['agent', '[waiting on hold]'],
      ['callee', 'Hello, thanks for holding, this is Sam.'],
      ['agent', 'Hi, this is an assistant calling about Sunday.'],
    ]);
    // From the model's call, as the callee's turn ended, to the person's first word.
    expect(said()[1]).to.deep.include({ startMs: 3020, endMs: personAt });
    expect(timeouts).to.equal(0);
  });

  it('waits through a recording heard on hold: the model calls wait_on_hold again, and the hold goes on from where it began', async () => {
    await start();
    fake.reply(waitOnHold('call_H1'), waitOnHold('call_H2'), { text: ['Hello Sam.'] });
    say(HOLD, 3000);
    await until('the model asked', () => fake.requests.length === 1);
    await settle();
    hear(20_000);
    say('Your call is important to us.', 3000);
    await until('the model asked again', () => fake.requests.length === 2);
    await settle();
    hear(20_000);
    await settle();
    expect(fake.requests).to.have.length(2);
    const personAt = heardMs;
    say('Hi, Sam here.', 1500);
    await until('the person answered', () => fake.requests.length === 3 && line.events.includes('play 800'));
    await session.ended();
    expect(said().map((t) => t.text)).to.deep.equal([HOLD, '[waiting on hold]', 'Your call is important to us.', 'Hi, Sam here.', 'Hello Sam.']);
    expect(said()[1]).to.deep.include({ startMs: 3020, endMs: personAt });
  });

  it('hangs up once the hold outlasts the call’s budget, recording why, the model never asked again', async () => {
    await start({ holdMaxWaitMs: 5000 });
    fake.reply(waitOnHold('call_H1'));
    say(HOLD, 3000);
    await until('the model asked', () => fake.requests.length === 1);
    await settle();
    hear(4980);
    await settle();
    expect(line.hungUp).to.equal(null);
    hear(20);
    await until('hung up', () => line.hungUp !== null);
    expect(line.hungUp).to.equal('hold_timeout');
    expect(await session.done).to.equal('hold_timeout');
    expect(timeouts).to.equal(1);
    expect(fake.requests).to.have.length(1);
    expect(said().map((t) => [t.text, t.startMs, t.endMs])).to.deep.equal([
      [HOLD, 0, 3000],
      ['[waiting on hold]', 3020, 8020],
    ]);
  });

  it('answers press_keys and keep_listening without asking the model to go on; the menu’s next words are what it answers', async () => {
    await start({ to: '+14155550125' });
    fake.reply(
      { calls: [{ id: 'call_L1', name: 'keep_listening', arguments: ['{}'] }] },
      { calls: [{ id: 'call_K1', name: 'press_keys', arguments: ['{"digits":"2"}'] }] },
      { text: ['Hello, Dana.'] },
    );
    say('Thank you for calling Northwind.', 2000);
    await until('the model asked', () => fake.requests.length === 1);
    await settle();
    hear(3000);
    await settle();
    expect(fake.requests).to.have.length(1);
    say('For orders, press 1. For deliveries, press 2.', 3000);
    await until('the keys pressed', () => line.events.includes('digits 2'));
    await settle();
    hear(3000);
    await settle();
    expect(fake.requests).to.have.length(2);
    say('Deliveries, this is Dana.', 1500);
    await until('the person answered', () => fake.requests.length === 3 && line.events.includes('play 800'));
    expect(fake.requests[2]!.body.messages.slice(-3)).to.deep.equal([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_K1', type: 'function', function: { name: 'press_keys', arguments: '{"digits":"2"}' } }] },
      { role: 'tool', tool_call_id: 'call_K1', content: '{"sent":"2"}' },
      { role: 'user', content: 'Deliveries, this is Dana.' },
    ]);
  });
});
