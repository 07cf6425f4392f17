// The fake realtime server behaves as OpenAI's Realtime API does, bad days included: driven here by a raw
// WebSocket client, so what is checked is the fake's wire behaviour and nothing of svc.
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { WebSocket, type RawData } from 'ws';
import { DEFAULT_RATE_LIMITS, MAX_SESSION_MS, sessionExpiredMessage, FakeRealtime, REALTIME_ERRORS, type FakeRealtimeOptions, type RealtimeStep } from '../support/fake-realtime.js';
import { muLawTone } from '../support/fake-media-peer.js';
import { untilChange } from '../support/until-change.js';

type Event = Record<string, unknown> & { type: string };

const PCMU_SESSION = {
  type: 'realtime',
  instructions: 'Be brief.',
  audio: { input: { format: { type: 'audio/pcmu' } }, output: { format: { type: 'audio/pcmu' }, voice: 'marin' } },
};

class Client extends EventEmitter {
  readonly events: Event[] = [];
  closed: { code: number } | null = null;
  private ids = 0;
  constructor(readonly ws: WebSocket) {
    super();
    ws.on('message', (data: RawData) => {
      this.events.push(JSON.parse(data.toString()) as Event);
      this.emit('change');
    });
    ws.on('close', (code: number) => {
      this.closed = { code };
      this.emit('change');
    });
  }
  /** Sends a client event with an event_id, which it returns. */
  send(event: Record<string, unknown>): string {
    const id = `client_${++this.ids}`;
    this.ws.send(JSON.stringify({ event_id: id, ...event }));
    return id;
  }
  append(bytes: number): void {
    this.send({ type: 'input_audio_buffer.append', audio: muLawTone(bytes, 300).toString('base64') });
  }
  types(): string[] {
    return this.events.map((e) => e.type);
  }
  of(type: string): Event[] {
    return this.events.filter((e) => e.type === type);
  }
  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }
  /** Resolves once `count` events of `type` have come. */
  got(type: string, count = 1): Promise<void> {
    return this.until(() => this.of(type).length >= count);
  }
}

/** Bytes of agent audio in the deltas received. */
const audioBytes = (c: Client, type = 'response.output_audio.delta') => c.of(type).reduce((n, e) => n + Buffer.from(String(e.delta), 'base64').length, 0);

describe('fake realtime server', () => {
  let fake: FakeRealtime;
  const fakes: FakeRealtime[] = [];
  const clients: Client[] = [];

  async function open(options: FakeRealtimeOptions, headers: Record<string, string> = {}): Promise<Client> {
    fake = await FakeRealtime.start(options);
    fakes.push(fake);
    const ws = new WebSocket(`${fake.url}?model=gpt-realtime`, { headers });
    const client = new Client(ws);
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  afterEach(async () => {
    for (const c of clients.splice(0)) c.ws.terminate();
    for (const f of fakes.splice(0)) await f.close();
  });

  describe('the session', () => {
    it('answers every session.update with the sessionUpdateError it was given, changing nothing and staying open', async () => {
      const c = await open({ script: [], sessionUpdateError: 'server_error' });
      const id = c.send({ type: 'session.update', session: PCMU_SESSION });
      await c.got('error');
      expect(c.of('error')[0].error).to.deep.equal({ param: null, event_id: id, ...REALTIME_ERRORS.server_error });
      expect(c.types()).to.not.include('session.updated');
      expect((fake.connections[0].session.audio as Record<string, any>).input.format).to.deep.equal({ type: 'audio/pcm', rate: 24000 });
      expect(c.closed).to.equal(null);
    });

    it('takes connections[i] as the options of the i-th socket: the first session fails, the second is confirmed', async () => {
      const first = await open({ script: [], connections: [{ sessionUpdateError: 'server_error' }, {}] });
      first.send({ type: 'session.update', session: PCMU_SESSION });
      await first.got('error');
      const ws = new WebSocket(`${fake.url}?model=gpt-realtime`);
      const second = new Client(ws);
      clients.push(second);
      await new Promise<void>((resolve) => ws.once('open', () => resolve()));
      second.send({ type: 'session.update', session: PCMU_SESSION });
      await second.got('session.updated');
      expect(second.types()).to.not.include('error');
      expect(fake.connections.map((k) => (k.session.audio as Record<string, any>).input.format.type)).to.deep.equal(['audio/pcm', 'audio/pcmu']);
    });

    it('sends session.created first, with the defaults: PCM16 at 24 kHz both ways, voice alloy, server VAD', async () => {
      const c = await open({ script: [] });
      await c.got('session.created');
      expect(c.types()).to.deep.equal(['session.created']);
      const session = c.events[0].session as Record<string, any>;
      expect(session).to.include({ type: 'realtime', object: 'realtime.session', model: 'gpt-realtime' });
      expect(session.audio.input.format).to.deep.equal({ type: 'audio/pcm', rate: 24000 });
      expect(session.audio.output).to.deep.equal({ format: { type: 'audio/pcm', rate: 24000 }, voice: 'alloy', speed: 1 });
      expect(session.audio.input.turn_detection.type).to.equal('server_vad');
    });

    it('answers session.update with session.updated carrying the whole session as configured', async () => {
      const c = await open({ script: [] });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      await c.got('session.updated');
      const session = c.of('session.updated')[0].session as Record<string, any>;
      expect(session).to.include({ type: 'realtime', object: 'realtime.session', id: 'sess_1', instructions: 'Be brief.' });
      expect(session.audio.input.format).to.deep.equal({ type: 'audio/pcmu' });
      expect(session.audio.output).to.deep.equal({ format: { type: 'audio/pcmu' }, voice: 'marin', speed: 1 });
      // What the update did not name keeps its value.
      expect(session.audio.input.turn_detection).to.include({ type: 'server_vad', silence_duration_ms: 200, interrupt_response: true });
      expect(session.output_modalities).to.deep.equal(['audio']);
      expect(fake.connections[0].session).to.deep.equal(session);
    });

    it('speaks mu-law once the session asks for it: 1,600 bytes of G.711 for 200 ms', async () => {
      const c = await open({ script: [{ agent: 'Hello.' }] });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      c.send({ type: 'response.create' });
      await c.got('response.done');
      expect(audioBytes(c)).to.equal(1600);
      expect(Buffer.from(String(c.of('response.output_audio.delta')[0].delta), 'base64')).to.deep.equal(muLawTone(800, 440));
    });

    const rejected: Array<[string, Record<string, unknown>, { code: string; param: string; message: string }]> = [
      ['a beta field on the GA interface', { ...PCMU_SESSION, modalities: ['audio'] }, { code: 'unknown_parameter', param: 'session.modalities', message: "Unknown parameter: 'session.modalities'." }],
      ['no session.type', { audio: PCMU_SESSION.audio }, { code: 'missing_required_parameter', param: 'session.type', message: "Missing required parameter: 'session.type'." }],
      [
        'an unknown audio format',
        { type: 'realtime', audio: { input: { format: { type: 'audio/ulaw' } } } },
        { code: 'invalid_value', param: 'session.audio.input.format.type', message: "Invalid value: 'audio/ulaw'. Supported values are: 'audio/pcm', 'audio/pcmu', 'audio/pcma'." },
      ],
      [
        'an unknown voice',
        { type: 'realtime', audio: { output: { voice: 'nova' } } },
        {
          code: 'invalid_value',
          param: 'session.audio.output.voice',
          message: "Invalid value: 'nova'. Supported values are: 'alloy', 'ash', 'ballad', 'coral', 'echo', 'sage', 'shimmer', 'verse', 'marin', 'cedar'.",
        },
      ],
    ];
    for (const [what, session, problem] of rejected) {
      it(`refuses a session.update with ${what} by an error event, and stays open on its defaults`, async () => {
        const c = await open({ script: [{ agent: 'Hello.' }] });
        const eventId = c.send({ type: 'session.update', session });
        await c.got('error');
        expect(c.of('error')[0].error).to.deep.equal({ type: 'invalid_request_error', event_id: eventId, ...problem });
        // The session is as it was: the model answers, in PCM16 at 24 kHz (6 bytes for each mu-law byte).
        c.send({ type: 'response.create' });
        await c.got('response.done');
        expect(c.types()).to.not.include('session.updated');
        expect(c.closed).to.equal(null);
        expect(fake.connections[0].refused).to.equal(undefined);
        expect(audioBytes(c)).to.equal(1600 * 6);
        expect((fake.connections[0].session.audio as any).output.format).to.deep.equal({ type: 'audio/pcm', rate: 24000 });
      });
    }

    it("closes on a rejected session.update with onBadSession: 'close'", async () => {
      const c = await open({ script: [{ agent: 'Hello.' }], onBadSession: 'close' });
      c.send({ type: 'session.update', session: { modalities: ['audio'] } });
      await c.until(() => c.closed !== null);
      expect(c.closed).to.deep.equal({ code: 1008 });
      expect(c.types()).to.deep.equal(['session.created', 'error']);
      expect(fake.connections[0].refused).to.equal("Unknown parameter: 'session.modalities'.");
    });

    it('beta: defaults to pcm16, takes g711_ulaw, and answers with the flat session', async () => {
      const c = await open({ script: [{ agent: 'Hello.' }], protocol: 'beta' }, { 'OpenAI-Beta': 'realtime=v1' });
      await c.got('session.created');
      expect(c.events[0].session).to.include({ input_audio_format: 'pcm16', output_audio_format: 'pcm16', voice: 'alloy' });
      c.send({ type: 'session.update', session: { modalities: ['audio', 'text'], voice: 'coral', input_audio_format: 'g711_ulaw', output_audio_format: 'g711_ulaw' } });
      c.send({ type: 'response.create' });
      await c.got('response.done');
      expect(c.of('session.updated')[0].session).to.include({ input_audio_format: 'g711_ulaw', output_audio_format: 'g711_ulaw', voice: 'coral', temperature: 0.8 });
      expect(audioBytes(c, 'response.audio.delta')).to.equal(1600);
    });

    it('beta: refuses a GA-shaped update with an error and stays open', async () => {
      const c = await open({ script: [], protocol: 'beta' }, { 'OpenAI-Beta': 'realtime=v1' });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      await c.got('error');
      expect(c.of('error')[0].error).to.include({ code: 'unknown_parameter', param: 'session.type' });
      expect(c.closed).to.equal(null);
    });
  });

  describe('responses', () => {
    async function pcmu(script: RealtimeStep[], options: Partial<FakeRealtimeOptions> = {}): Promise<Client> {
      const c = await open({ script, ...options });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      await c.got('session.updated');
      return c;
    }

    it('reports rate_limits.updated at the start of every response, unless told not to', async () => {
      const c = await pcmu([{ agent: 'Hello.' }]);
      c.send({ type: 'response.create' });
      await c.got('response.done');
      const types = c.types();
      expect(types.indexOf('rate_limits.updated')).to.equal(types.indexOf('response.created') + 1);
      expect(c.of('rate_limits.updated')[0].rate_limits).to.deep.equal(DEFAULT_RATE_LIMITS);

      const quiet = await pcmu([{ agent: 'Hello.' }], { rateLimits: false });
      quiet.send({ type: 'response.create' });
      await quiet.got('response.done');
      expect(quiet.types()).to.not.include('rate_limits.updated');
    });

    it('sends the callee transcript before the reply by default, and after it with transcriptAfterReply', async () => {
      for (const late of [false, true]) {
        const c = await pcmu([{ callee: 'Yes, we are open.', afterBytes: 320, transcriptAfterReply: late }, { agent: 'Thank you.' }]);
        c.append(320);
        await c.got('conversation.item.input_audio_transcription.completed');
        const t = c
          .types()
          .filter((x) => x.startsWith('input_audio_buffer.speech') || x === 'conversation.item.input_audio_transcription.completed' || x === 'response.output_audio.delta' || x === 'response.done');
        expect(t).to.deep.equal(
          late
            ? [
                'input_audio_buffer.speech_started',
                'input_audio_buffer.speech_stopped',
                'response.output_audio.delta',
                'response.output_audio.delta',
                'response.done',
                'conversation.item.input_audio_transcription.completed',
              ]
            : [
                'input_audio_buffer.speech_started',
                'input_audio_buffer.speech_stopped',
                'conversation.item.input_audio_transcription.completed',
                'response.output_audio.delta',
                'response.output_audio.delta',
                'response.done',
              ],
        );
        expect(c.of('conversation.item.input_audio_transcription.completed')[0].transcript).to.equal('Yes, we are open.');
      }
    });

    it('leaves a midTurn callee turn open until the client commits it, then transcribes it (after transcriptDelayMs) with no response', async () => {
      const c = await pcmu([{ callee: 'We close at five.', afterBytes: 320, midTurn: true, transcriptDelayMs: 30 }, { agent: 'Thank you.' }]);
      c.append(320);
      await c.got('input_audio_buffer.speech_started');
      c.append(1600);
      // A cancel with nothing to cancel is answered in turn: every event the audio caused has come before it.
      c.send({ type: 'response.cancel' });
      await c.got('error');
      expect(c.types().slice(2)).to.deep.equal(['input_audio_buffer.speech_started', 'error']);
      const started = c.of('input_audio_buffer.speech_started')[0].item_id;
      c.send({ type: 'input_audio_buffer.commit' });
      await c.got('conversation.item.input_audio_transcription.completed');
      expect(c.types().slice(4)).to.deep.equal(['input_audio_buffer.committed', 'conversation.item.input_audio_transcription.completed']);
      expect(c.of('input_audio_buffer.committed')[0].item_id).to.equal(started);
      expect(c.of('conversation.item.input_audio_transcription.completed')[0]).to.include({ item_id: started, transcript: 'We close at five.' });
      expect(c.types()).to.not.include('response.created');
    });

    it('refuses a commit of under 100 ms of audio with input_audio_buffer_commit_empty, and commits more as an item transcribed empty', async () => {
      const c = await pcmu([]);
      c.append(400);
      const id = c.send({ type: 'input_audio_buffer.commit' });
      await c.got('error');
      expect(c.of('error')[0].error).to.deep.include({ type: 'invalid_request_error', code: 'input_audio_buffer_commit_empty', event_id: id });
      c.append(400);
      c.send({ type: 'input_audio_buffer.commit' });
      await c.got('conversation.item.input_audio_transcription.completed');
      expect(c.of('input_audio_buffer.committed')).to.have.length(1);
      expect(c.of('conversation.item.input_audio_transcription.completed')[0].transcript).to.equal('');
    });

    it('fires speech_started on noise with no turn after it: never committed, committed untranscribed, or an empty transcript', async () => {
      const after = ['input_audio_buffer.speech_started', 'input_audio_buffer.speech_stopped', 'input_audio_buffer.committed', 'conversation.item.input_audio_transcription.completed'];
      const cases = [
        ['nothing', after.slice(0, 1)],
        ['no-transcript', after.slice(0, 3)],
        ['empty-transcript', after],
      ] as const;
      for (const [ends, expected] of cases) {
        const c = await pcmu([{ noise: true, afterBytes: 160, ends }, { callee: 'Hello?', afterBytes: 800 }, { agent: 'Hi.' }]);
        c.append(160);
        await c.got('input_audio_buffer.speech_started');
        c.append(400);
        // A cancel with nothing to cancel is answered in turn: every event the audio caused has come before it.
        c.send({ type: 'response.cancel' });
        await c.got('error');
        // The noise gets no response and no turn.
        expect(c.types().slice(2)).to.deep.equal([...expected, 'error']);
        if (ends === 'empty-transcript') expect(c.of('conversation.item.input_audio_transcription.completed')[0].transcript).to.equal('');
        // The next turn is heard afresh, 800 bytes after the noise.
        c.append(400);
        await c.got('response.done');
        expect(c.of('conversation.item.input_audio_transcription.completed').at(-1)!.transcript).to.equal('Hello?');
      }
    });

    it('ends a response cancelled (client_cancelled) on response.cancel, and answers the truncate of its item', async () => {
      const c = await pcmu([{ agent: 'A long answer', audioBytes: 4000, unfinished: true }, { agent: 'Next.' }]);
      c.send({ type: 'response.create' });
      await c.got('response.output_audio.delta', 5);
      const itemId = c.of('response.output_audio.delta')[0].item_id;
      expect(c.types()).to.not.include('response.done');
      // A second response while the first is active is refused.
      c.send({ type: 'response.create' });
      await c.got('error');
      expect(c.of('error')[0].error).to.include({ type: 'invalid_request_error', code: 'conversation_already_has_active_response' });
      c.send({ type: 'conversation.item.truncate', item_id: itemId, content_index: 0, audio_end_ms: 150 });
      c.send({ type: 'response.cancel' });
      await c.got('response.done');
      expect(c.of('conversation.item.truncated')[0]).to.include({ item_id: itemId, content_index: 0, audio_end_ms: 150 });
      const response = c.of('response.done')[0].response as Record<string, unknown>;
      expect(response).to.include({ status: 'cancelled' });
      expect(response.status_details).to.deep.equal({ type: 'cancelled', reason: 'client_cancelled' });
      c.send({ type: 'response.cancel' });
      await c.got('error', 2);
      expect(c.of('error')[1].error).to.include({ code: 'response_cancel_not_active' });
      // The script goes on with the next response.
      c.send({ type: 'response.create' });
      await c.got('response.done', 2);
      expect(c.of('response.done')[1].response).to.include({ status: 'completed' });
    });

    it('cancels a response in progress (turn_detected) when the caller starts speaking', async () => {
      const c = await pcmu([{ agent: 'A long answer', unfinished: true }, { callee: 'Sorry, who?', afterBytes: 160 }, { agent: 'An assistant.' }]);
      c.send({ type: 'response.create' });
      await c.got('response.output_audio.delta', 2);
      c.append(160);
      await c.got('response.done', 2);
      const types = c.types();
      expect(types.indexOf('response.done')).to.equal(types.indexOf('input_audio_buffer.speech_started') + 1);
      expect(c.of('response.done').map((e) => (e.response as Record<string, unknown>).status_details)).to.deep.equal([{ type: 'cancelled', reason: 'turn_detected' }, null]);
    });

    it('leaves a response running when the session set interrupt_response false: the caller speaking does not cancel it', async () => {
      const c = await open({
        script: [
          { agent: 'A long answer', unfinished: true },
          { callee: 'Mm-hm.', afterBytes: 160 },
        ],
      });
      const session = { ...PCMU_SESSION, audio: { ...PCMU_SESSION.audio, input: { ...PCMU_SESSION.audio.input, turn_detection: { type: 'server_vad', interrupt_response: false } } } };
      c.send({ type: 'session.update', session });
      await c.got('session.updated');
      c.send({ type: 'response.create' });
      await c.got('response.output_audio.delta', 2);
      c.append(160);
      await c.got('input_audio_buffer.speech_started');
      await c.got('conversation.item.input_audio_transcription.completed');
      expect(c.of('response.done')).to.deep.equal([]);
      // The client cancels it itself when it decides the caller has cut in.
      c.send({ type: 'response.cancel' });
      await c.got('response.done');
      expect((c.of('response.done')[0].response as Record<string, unknown>).status_details).to.deep.equal({ type: 'cancelled', reason: 'client_cancelled' });
    });

    it('ends a response failed, with status_details.error, on a fail step', async () => {
      const c = await pcmu([{ fail: 'insufficient_quota' }, { agent: 'After.' }]);
      c.send({ type: 'response.create' });
      await c.got('response.done');
      const response = c.of('response.done')[0].response as Record<string, unknown>;
      expect(response.status).to.equal('failed');
      expect(response.status_details).to.deep.equal({ type: 'failed', error: { type: 'insufficient_quota', code: 'insufficient_quota' } });
      expect(c.types()).to.not.include('response.output_audio.delta');
    });

    for (const reason of ['max_output_tokens', 'content_filter'] as const) {
      it(`ends a response incomplete (${reason}) after the audio it had`, async () => {
        const c = await pcmu([{ agent: 'Cut', incomplete: reason }, { agent: 'Not reached.' }]);
        c.send({ type: 'response.create' });
        await c.got('response.done');
        const response = c.of('response.done')[0].response as Record<string, any>;
        expect(response.status).to.equal('incomplete');
        expect(response.status_details).to.deep.equal({ type: 'incomplete', reason });
        expect(response.output[0].status).to.equal('incomplete');
        expect(audioBytes(c)).to.equal(1600);
      });
    }

    it('sends error events mid-session in the API shapes, and the session stays open', async () => {
      const c = await pcmu([
        { agent: 'Hello.' },
        { error: 'rate_limit_exceeded', afterBytes: 160 },
        { error: 'insufficient_quota', afterBytes: 160 },
        { error: 'server_error', afterBytes: 160 },
        { callee: 'Yes.', afterBytes: 160 },
        { agent: 'Thanks.' },
      ]);
      c.send({ type: 'response.create' });
      for (let i = 0; i < 4; i++) c.append(160);
      await c.got('response.done', 2);
      expect(c.of('error').map((e) => e.error)).to.deep.equal([
        { param: null, event_id: null, ...REALTIME_ERRORS.rate_limit_exceeded },
        { param: null, event_id: null, ...REALTIME_ERRORS.insufficient_quota },
        { param: null, event_id: null, ...REALTIME_ERRORS.server_error },
      ]);
      expect(REALTIME_ERRORS.rate_limit_exceeded).to.include({ type: 'tokens', code: 'rate_limit_exceeded' });
      expect(REALTIME_ERRORS.server_error).to.include({ type: 'server_error', code: null });
      expect(c.closed).to.equal(null);
    });
  });

  describe('connection', () => {
    it('ends the session at its maximum duration with session_expired, then closes', async () => {
      const c = await open({ script: [], maxSessionMs: 30 });
      await c.until(() => c.closed !== null);
      expect(c.types()).to.deep.equal(['session.created', 'error']);
      expect(c.of('error')[0].error).to.deep.equal({
        type: 'invalid_request_error',
        code: 'session_expired',
        message: 'Your session hit the maximum duration of 0.0005 minutes.',
        param: null,
        event_id: null,
      });
      expect(c.closed).to.deep.equal({ code: 1000 });
    });

    it('words the 60-minute limit as OpenAI does', () => {
      // The default limit itself: checked by the message it would send, without waiting an hour.

      expect(MAX_SESSION_MS).to.equal(3_600_000);
      expect(sessionExpiredMessage(MAX_SESSION_MS)).to.equal('Your session hit the maximum duration of 60 minutes.');
    });

    it('answers the upgrade only after handshakeDelayMs', async () => {
      const started = performance.now();
      const c = await open({ script: [], handshakeDelayMs: 80 });
      expect(performance.now() - started).to.be.at.least(79);
      await c.got('session.created');
    });

    it('sends session.created only after sessionCreatedDelayMs, and takes the events sent meanwhile in order after it', async () => {
      const started = performance.now();
      const c = await open({ script: [{ agent: 'Hello.' }], sessionCreatedDelayMs: 80 });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      c.send({ type: 'response.create' });
      await c.got('response.done');
      expect(c.types().slice(0, 3)).to.deep.equal(['session.created', 'session.updated', 'response.created']);
      expect(performance.now() - started).to.be.at.least(79);
      expect(audioBytes(c)).to.equal(1600);
    });

    it('sends a response’s first output firstAudioDelayMs after response.created, and nothing of a response cancelled meanwhile', async () => {
      const c = await open({ script: [{ agent: 'Hello.' }, { callee: 'Hi.', afterBytes: 160 }, { agent: 'How are you?' }], firstAudioDelayMs: 80 });
      c.send({ type: 'session.update', session: PCMU_SESSION });
      c.send({ type: 'response.create' });
      await c.got('response.created');
      expect(c.of('response.output_audio.delta')).to.have.length(0);
      await c.got('response.done');
      // Timed by the server's clock of what it sent, which a busy client cannot skew.
      const { sent, sentAt } = fake.connections[0]!;
      const at = (type: string) => sentAt[sent.findIndex((e) => e.type === type)]!;
      expect(at('response.output_audio.delta') - at('response.created')).to.be.at.least(79);
      expect(audioBytes(c)).to.equal(1600);
      // The callee's turn starts the next response; cancelled before its first output, it sends none.
      c.append(160);
      await c.got('response.created', 2);
      c.send({ type: 'response.cancel' });
      await c.got('response.done', 2);
      await new Promise((r) => setTimeout(r, 120));
      expect(c.of('response.done')[1].response).to.deep.include({ status: 'cancelled' });
      expect(audioBytes(c)).to.equal(1600);
    });

    it('refuses the other interface by its header, closing the socket', async () => {
      const c = await open({ script: [] }, { 'OpenAI-Beta': 'realtime=v1' });
      await c.until(() => c.closed !== null);
      expect(c.closed).to.deep.equal({ code: 1008 });
      expect(fake.connections[0].refused).to.equal('beta header on the GA interface');
    });
  });
});
