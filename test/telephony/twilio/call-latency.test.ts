// A realtime call's latency, end to end on the fakes: the greeting's first audio, each answer after the callee's
// end of speech, a barge-in cleared, on the call record (from the store, either kind), on the call stream's
// terminal status, and in the process's Prometheus histograms. Where the fakes fix a value it is checked exactly
// (the model's audio_end_ms and audio_start_ms come from the audio the peer sent); how long svc took is the
// wall clock's and is checked for its bounds and its order.
import { expect } from 'chai';
import { callLatencyMetrics } from '../../../server/src/http/observability/call-latency-metrics.js';
import { recordLineEvent } from '../../../server/src/telephony/carrier-inbox.js';
import type { CallLatency } from '../../../server/src/generated/types.gen.js';
import { FRAME_BYTES, muLawTone } from '../../support/fake-media-peer.js';
import { forEachStore } from '../../support/stores.js';
import { callSidOf, startBridge, type BridgeHarness } from './media-harness.js';

/** A histogram's sample count in an exposition. */
const count = (text: string, name: string) => Number(new RegExp(`^${name}_count (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
const HISTOGRAMS = ['svc_call_first_audio_seconds', 'svc_call_turn_response_seconds', 'svc_call_barge_in_clear_seconds'];

forEachStore('the latency of a realtime call', (kind) => {
  let h: BridgeHarness;
  afterEach(() => h?.close());

  it('is on the record, on the stream’s terminal status and in the histograms: first audio, two answers, one barge-in', async () => {
    h = await startBridge(kind, {
      observer: callLatencyMetrics,
      script: [
        { agent: 'Hello, I am an AI assistant calling for a customer.', audioBytes: 1600 },
        { callee: 'Hello?', afterBytes: 10 * FRAME_BYTES },
        // Four seconds of audio, played in real time: the callee talks over it.
        { agent: 'I am calling to ask whether the shop is open on Sunday, because the customer would like to come by.', audioBytes: 32_000 },
        { callee: 'Sorry, say that again?', afterBytes: 5 * FRAME_BYTES },
        { agent: 'Is the shop open on Sunday? Goodbye.', audioBytes: 800 },
        { endCall: true },
      ],
    });
    const before = await (await fetch(`${h.srv.baseUrl}/metrics`)).text();
    const id = await h.placeCall();
    const at = h.srv.clock.now() + 4000;
    await recordLineEvent(h.db, { callId: id, ref: callSidOf(id), event: { kind: 'answered', at } }, at);
    h.srv.clock.ms = at;
    await h.srv.engine.tick();
    const hungUp = h.nextHangUp();
    const peer = await h.stream(id, { peer: { playback: 'real-time' } });
    await peer.until(() => peer.echoed.length === 2); // the greeting has played (its two marks are back)
    peer.speak(muLawTone(10 * FRAME_BYTES, 300)); // 200 ms: the model's end of speech is at 200
    await peer.until(() => peer.mediaBytes >= 1600 + 8000);
    peer.speak(muLawTone(5 * FRAME_BYTES, 300)); // the callee's speech from 200 to 300 ms cuts the agent off
    await peer.until(() => peer.events('clear').length === 1);
    h.srv.clock.advance(20_000);
    await hungUp;
    await h.srv.drive(id);

    const record = (await h.alice.api.get(`/v1/agent/calls/${id}`)).body as { status: string; latency: CallLatency };
    expect(record.status).to.equal('completed');
    const { latency } = record;
    expect(Object.keys(latency).sort()).to.deep.equal(['bargeIns', 'firstAudioMs', 'p50Ms', 'p95Ms', 'turns']);
    // The model's end of speech for each answer, and its start of speech for the barge-in, are where the peer's audio put them.
    expect(latency.turns.map((t) => t.atMs)).to.deep.equal([200, 300]);
    expect(latency.bargeIns.map((b) => b.atMs)).to.deep.equal([200]);
    for (const ms of [latency.firstAudioMs!, ...latency.turns.map((t) => t.afterMs)]) expect(ms).to.be.a('number').within(0, 5000);
    // The clear came once the stream had reached 300 ms: at least the 100 ms of speech after its start.
    expect(latency.bargeIns[0].clearMs).to.be.within(100, 5000);
    const afters = latency.turns.map((t) => t.afterMs);
    expect([latency.p50Ms, latency.p95Ms]).to.deep.equal([Math.min(...afters), Math.max(...afters)]);
    // The item was truncated at what the line had played, which is past the mark's 100 ms steps' last.
    const truncate = h.realtime.connections[0].received.find((e) => e.type === 'conversation.item.truncate') as { audio_end_ms: number } | undefined;
    expect(truncate?.audio_end_ms).to.be.a('number').within(0, 4000);

    const stream = await (await fetch(`${h.srv.baseUrl}/v1/agent/calls/${id}/stream`, { headers: { authorization: `Bearer ${h.alice.key}` } })).text();
    const statuses = [...stream.matchAll(/^event: status\ndata: (.*)$/gm)].map((m) => JSON.parse(m[1]) as { status: string; latency?: CallLatency });
    expect(statuses.map((s) => [s.status, s.latency ?? null])).to.deep.equal([
      ['queued', null],
      ['dialing', null],
      ['in_progress', null],
      ['completed', latency],
    ]);

    const after = await (await fetch(`${h.srv.baseUrl}/metrics`)).text();
    expect(HISTOGRAMS.map((name) => count(after, name) - count(before, name))).to.deep.equal([1, 2, 1]);
  });

  it('is null on the record of a call the live agent never joined, and absent from its stream', async () => {
    h = await startBridge(kind, { script: [] });
    const id = await h.placeCall();
    const at = h.srv.clock.now() + 1000;
    await recordLineEvent(h.db, { callId: id, ref: callSidOf(id), event: { kind: 'ended', at, outcome: 'no_answer' } }, at);
    h.srv.clock.ms = at;
    await h.srv.drive(id);
    const record = (await h.alice.api.get(`/v1/agent/calls/${id}`)).body as { status: string; latency: unknown };
    expect([record.status, record.latency]).to.deep.equal(['no_answer', null]);
    const stream = await (await fetch(`${h.srv.baseUrl}/v1/agent/calls/${id}/stream`, { headers: { authorization: `Bearer ${h.alice.key}` } })).text();
    expect(stream).to.not.include('latency');
  });
});
