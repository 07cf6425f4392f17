// Keys with the cascaded agent, its model an OpenAI-compatible server (the fake chat-completions stream, which
// refuses a conversation OpenAI would refuse): the callee's keys reach the model as one user message per group, and
// as one callee turn; the model's press_keys goes to the line after what it said and is answered once the line says
// the keys have played, its answer placed right after the call even when the callee's keys came meanwhile. The line
// is a recording stand-in (its marks answered as a test says), the ears a quiet stand-in: keys are not speech.
import { expect } from 'chai';
import { pino } from 'pino';
import { OpenAiCompatibleChatModel } from '../../../server/src/chat-model/openai-compatible.js';
import type { LineBrief, TimedTurn } from '../../../server/src/conversation/conversation.js';
import type { Consultation, LiveLine } from '../../../server/src/telephony/live-line.js';
import { CascadedSession, type CascadedTiming } from '../../../server/src/voice-agent/cascaded/cascaded-session.js';
import { CALL_TOOLS } from '../../../server/src/voice-agent/tools.js';
import { TurnLedger } from '../../../server/src/voice-agent/turn-ledger.js';
import { type FakeChatStream, startFakeChatStream } from '../../support/fake-chat-stream.js';
import { until } from '../../support/until.js';
import { ScriptedEars, silentRecognizer as recognizer, tenthSecondVoice as voice } from './session-rig.js';

const BRIEF: LineBrief = { callId: 'call-keys-1', to: '+14155550123', objective: 'Reach the sales desk.', context: null, fields: [], language: 'en-US', voice: 'alloy' };
const logger = pino({ level: process.env.SVC_TEST_LOG ?? 'silent' });

/**
 * A line that records what the session does to it; the ledger's marks come back at once (unless all are held), the
 * keypad's when released.
 */
class TestLine implements LiveLine {
  readonly events: string[] = [];
  session: CascadedSession | null = null;
  readonly heldMarks: string[] = [];
  holdAll = false;
  play(payload: string): void {
    this.events.push(`play ${Buffer.from(payload, 'base64').length}`);
  }
  mark(name: string): void {
    this.events.push(`mark ${name}`);
    if (name.startsWith('svc_keys_') || this.holdAll) this.heldMarks.push(name);
    else setImmediate(() => this.session?.marked(name));
  }
  clear(): void {
    this.events.push('clear');
  }
  sendDigits(digits: string): void {
    this.events.push(`digits ${digits}`);
  }
  async hangUp(): Promise<void> {
    this.events.push('hang up');
  }
  async transfer(): Promise<void> {}
  consult(): Consultation {
    return { outcome: Promise.resolve('failed'), stillThere: async () => false, join: async () => undefined, release: async () => undefined };
  }
  release(name: string): void {
    this.heldMarks.splice(this.heldMarks.indexOf(name), 1);
    this.session?.marked(name);
  }
}

describe('keys with the cascaded agent', () => {
  let fake: FakeChatStream;
  let line: TestLine;
  let session: CascadedSession;
  let turns: TimedTurn[];
  let heardMs: number;
  let ears: ScriptedEars;
  afterEach(async () => {
    await session?.ended();
    await fake?.close();
  });

  async function start(timing: Partial<CascadedTiming> = {}): Promise<void> {
    fake = await startFakeChatStream({ flavour: 'openai', apiKey: 'sk-chat-test' });
    line = new TestLine();
    turns = [];
    heardMs = 0;
    ears = new ScriptedEars();
    const ledger = new TurnLedger(line, async (_seq, turn) => void turns.push(turn), logger, BRIEF.callId);
    session = new CascadedSession(
      BRIEF,
      line,
      ledger,
      ears,
      CALL_TOOLS,
      { recognizer, model: new OpenAiCompatibleChatModel({ baseUrl: fake.baseUrl, apiKey: 'sk-chat-test', model: 'gpt-test' }), voice, voiceName: null },
      { greetAfterMs: 1_000_000, ...timing },
      {
        recordOptOut: async () => undefined,
        recordFailure: async () => undefined,
        apology: () => Promise.reject(new Error('no apology in this test')),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      },
      logger,
    );
    line.session = session;
  }

  /** `ms` of the callee's silent line, in 20 ms frames. */
  function hear(ms: number): void {
    for (let at = 0; at < ms; at += 20) {
      session.heard(Buffer.alloc(160, 0xff).toString('base64'), heardMs);
      heardMs += 20;
    }
  }

  it("gives the model the callee's keys as one user message once 1.5 s pass without another, and answers it", async () => {
    await start();
    fake.reply({ text: ['You pressed one, two, three.'] });
    hear(500);
    session.dtmf('1');
    session.dtmf('2');
    hear(1000);
    session.dtmf('3');
    hear(1480);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).to.have.length(0);
    hear(20);
    await until('the reply to the keys', () => fake.requests.length === 1 && line.events.includes('play 800'));
    const messages = fake.requests[0]!.body.messages;
    expect(messages.slice(1)).to.deep.equal([{ role: 'user', content: '[The callee pressed 1 2 3]' }]);
    await session.ended();
    expect(turns).to.deep.equal([
      { speaker: 'callee', text: '[pressed 1 2 3]', startMs: 500, endMs: 1500 },
      { speaker: 'agent', text: 'You pressed one, two, three.', startMs: 3000, endMs: 3100 },
    ]);
  });

  it('answers keys that came while a reply was being written once that reply is done, with them in the conversation', async () => {
    await start({ greetAfterMs: 0 });
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    fake.reply({ text: ['Hello, this is the assistant.'], holdAfter: 1, until: () => held }, { text: ['You pressed five.'] });
    hear(20);
    await until('the greeting asked for', () => fake.requests.length === 1);
    session.dtmf('5');
    hear(1500);
    letGo();
    await until('the keys answered', () => fake.requests.length === 2 && line.events.filter((e) => e === 'play 800').length === 2);
    expect(fake.requests[0]!.body.messages.slice(1)).to.deep.equal([]);
    expect(fake.requests[1]!.body.messages.slice(1)).to.deep.equal([
      { role: 'user', content: '[The callee pressed 5]' },
      { role: 'assistant', content: 'Hello, this is the assistant.' },
    ]);
  });

  it('presses the keys the model asks for after what it said, and answers it once they played, the callee keys of meanwhile after that answer', async () => {
    await start({ greetAfterMs: 0 });
    fake.reply({ text: ['I will choose sales.'], calls: [{ id: 'call_P1', name: 'press_keys', arguments: ['{"digits":', '"1w2"}'] }] }, { text: ['Thank you.'] });
    hear(20);
    await until('the keys on the line', () => line.heldMarks.length === 1);
    expect(line.events).to.deep.equal(['play 800', 'mark a1', 'digits 1w2', 'mark svc_keys_1']);
    // The keys are not said to have played: the model is not asked again. The callee presses a key meanwhile.
    session.dtmf('9');
    hear(1500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).to.have.length(1);
    hear(400);
    line.release('svc_keys_1');
    await until('the second request, spoken', () => fake.requests.length === 2 && line.events.filter((e) => e === 'play 800').length === 2);
    expect(fake.requests[1]!.body.messages.slice(1)).to.deep.equal([
      { role: 'assistant', content: 'I will choose sales.', tool_calls: [{ id: 'call_P1', type: 'function', function: { name: 'press_keys', arguments: '{"digits":"1w2"}' } }] },
      { role: 'tool', tool_call_id: 'call_P1', content: '{"sent":"1w2"}' },
      { role: 'user', content: '[The callee pressed 9]' },
    ]);
    await session.ended();
    expect(turns).to.deep.equal([
      { speaker: 'agent', text: 'I will choose sales.', startMs: 20, endMs: 120 },
      { speaker: 'callee', text: '[pressed 9]', startMs: 20, endMs: 20 },
      // Released at 1,920 ms of call time; the keys last 900 ms.
      { speaker: 'agent', text: '[pressed 1 2]', startMs: 1020, endMs: 1920 },
      { speaker: 'agent', text: 'Thank you.', startMs: 1920, endMs: 2020 },
    ]);
  });

  it('answers the model that the keys were cut off when the callee talked over the agent, before it is asked again', async () => {
    await start({ greetAfterMs: 0 });
    fake.reply({ text: ['One moment.'], calls: [{ id: 'call_P2', name: 'press_keys', arguments: ['{"digits":"0"}'] }] }, { text: ['Of course, sales it is.'] });
    line.holdAll = true;
    hear(20);
    await until('the reply and the keys on the line', () => line.heldMarks.length === 2);
    expect(line.events).to.deep.equal(['play 800', 'mark a1', 'digits 0', 'mark svc_keys_1']);
    // The callee talks over the agent: the line is cleared, tones and all; their turn ends before the line has said so.
    ears.next = [
      { type: 'speech_started', atMs: 40 },
      { type: 'barge_in', atMs: 40 },
    ];
    hear(20);
    expect(line.events.at(-1)).to.equal('clear');
    ears.next = [{ type: 'turn_ended', text: 'Sales, please.', startMs: 40, endMs: 900 }];
    hear(20);
    await new Promise((resolve) => setImmediate(resolve));
    expect(fake.requests).to.have.length(1);
    // Twilio answers the cleared marks at once, after the clear.
    line.release('a1');
    line.release('svc_keys_1');
    await until('the second request', () => fake.requests.length === 2);
    expect(fake.requests[1]!.body.messages.slice(1)).to.deep.equal([
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_P2', type: 'function', function: { name: 'press_keys', arguments: '{"digits":"0"}' } }] },
      {
        role: 'tool',
        tool_call_id: 'call_P2',
        content: '{"sent":null,"note":"The keys were cut off: the line was cleared when the other side spoke over you. Press them again if they are still wanted."}',
      },
      { role: 'user', content: 'Sales, please.' },
    ]);
    await session.ended();
    expect(turns.map((t) => t.text)).to.not.include('[pressed 0]');
  });
});
