// The fake media peer plays Twilio's side of a Media Stream as Twilio does: marks come back once the audio before
// them has played at the line's rate (with seeded jitter), clear drops what has not played and returns the pending
// marks at once, and key presses arrive as dtmf messages. Driven by a bare WebSocket server standing in for the
// bridge, on a clock the test moves by hand.
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import { FakeMediaPeer, linearToALaw, ManualClock, MU_LAW_SILENCE, muLawTone, type MediaPeerOptions, type PlaybackClock } from '../support/fake-media-peer.js';
import { untilChange } from '../support/until-change.js';

type Msg = Record<string, unknown> & { event: string };

/** The bridge's end: what the peer sent, and a way to send it media, marks and clear. */
class Bridge extends EventEmitter {
  readonly got: Msg[] = [];
  constructor(readonly ws: WebSocket) {
    super();
    ws.on('message', (data: RawData) => {
      this.got.push(JSON.parse(data.toString()) as Msg);
      this.emit('change');
    });
  }
  media(bytes: number): void {
    this.ws.send(JSON.stringify({ event: 'media', streamSid: 'MZ1', media: { payload: muLawTone(bytes, 440).toString('base64') } }));
  }
  mark(name: string): void {
    this.ws.send(JSON.stringify({ event: 'mark', streamSid: 'MZ1', mark: { name } }));
  }
  clear(): void {
    this.ws.send(JSON.stringify({ event: 'clear', streamSid: 'MZ1' }));
  }
  marks(): string[] {
    return this.got.filter((m) => m.event === 'mark').map((m) => (m.mark as { name: string }).name);
  }
  until(test: () => boolean): Promise<void> {
    return untilChange(this, test);
  }
}

/** A hand-moved clock whose timers due at the same time fire newest first, as real timers set a moment apart may. */
class NewestFirstClock implements PlaybackClock {
  private at = 0;
  private nextId = 0;
  private timers: Array<{ id: number; due: number; run: () => void }> = [];
  now(): number {
    return this.at;
  }
  setTimeout(run: () => void, ms: number): number {
    const id = ++this.nextId;
    this.timers.push({ id, due: this.at + ms, run });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  advance(ms: number): void {
    const end = this.at + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.due <= end).sort((a, b) => a.due - b.due || b.id - a.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.at = next.due;
      next.run();
    }
    this.at = end;
  }
}

describe('fake media peer', () => {
  let wss: WebSocketServer;
  const peers: FakeMediaPeer[] = [];

  beforeEach(async () => {
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  });
  afterEach(async () => {
    for (const p of peers.splice(0)) p.close();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  });

  async function connect(options: MediaPeerOptions): Promise<{ peer: FakeMediaPeer; bridge: Bridge }> {
    const accepted = new Promise<Bridge>((resolve) => wss.once('connection', (ws) => resolve(new Bridge(ws))));
    const peer = await FakeMediaPeer.connect(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/`, options);
    peers.push(peer);
    const bridge = await accepted;
    peer.start({ callSid: 'CA1', streamSid: 'MZ1' });
    return { peer, bridge };
  }

  it('echoes a mark on arrival in instant playback (the default)', async () => {
    const { peer, bridge } = await connect({});
    bridge.media(8000);
    bridge.mark('a');
    await bridge.until(() => bridge.marks().length === 1);
    expect(bridge.marks()).to.deep.equal(['a']);
    expect(peer.playedBytes()).to.equal(8000);
  });

  it('echoes each mark in real time, once the audio before it has played at 8 bytes a millisecond', async () => {
    const clock = new ManualClock();
    const { peer, bridge } = await connect({ playback: 'real-time', clock });
    bridge.media(800); // 100 ms
    bridge.mark('a');
    bridge.media(1600); // 200 ms more
    bridge.mark('b');
    await peer.until(() => peer.received.length === 4);
    clock.advance(99);
    expect(peer.echoed).to.deep.equal([]);
    expect(peer.playedBytes()).to.equal(792);
    clock.advance(1);
    expect(peer.echoed).to.deep.equal([{ name: 'a', at: 100 }]);
    clock.advance(199);
    expect(peer.echoed.map((e) => e.name)).to.deep.equal(['a']);
    clock.advance(1);
    expect(peer.echoed).to.deep.equal([
      { name: 'a', at: 100 },
      { name: 'b', at: 300 },
    ]);
    await bridge.until(() => bridge.marks().length === 2);
    expect(bridge.got.filter((m) => m.event === 'mark')[1]).to.deep.include({ event: 'mark', streamSid: 'MZ1', mark: { name: 'b' } });
    // Audio that arrives on an idle line starts playing when it arrives.
    clock.advance(500);
    bridge.media(160);
    bridge.mark('c');
    await peer.until(() => peer.received.length === 6);
    clock.advance(19);
    expect(peer.echoed).to.have.length(2);
    clock.advance(1);
    expect(peer.echoed.at(-1)).to.deep.equal({ name: 'c', at: 820 });
  });

  it('delays echoes by seeded jitter, in order, the same for the same seed', async () => {
    const times: number[][] = [];
    for (const seed of [7, 7, 8]) {
      const clock = new ManualClock();
      const { peer, bridge } = await connect({ playback: 'real-time', clock, jitterMs: 40, seed });
      for (const name of ['a', 'b', 'c', 'd']) {
        bridge.media(160); // 20 ms each
        bridge.mark(name);
      }
      await peer.until(() => peer.received.length === 8);
      clock.advance(1000);
      expect(peer.echoed.map((e) => e.name)).to.deep.equal(['a', 'b', 'c', 'd']);
      const at = peer.echoed.map((e) => e.at);
      at.forEach((t, i) => {
        expect(t).to.be.at.least(20 * (i + 1));
        if (i > 0) expect(t).to.be.at.least(at[i - 1]);
      });
      expect(at[0]).to.be.at.most(60);
      times.push(at);
    }
    expect(times[0]).to.deep.equal(times[1]);
    expect(times[0]).to.not.deep.equal(times[2]);
    expect(times[0].some((t, i) => t > 20 * (i + 1))).to.equal(true);
  });

  it('echoes marks due at the same time in the order they came, whichever timer fires first', async () => {
    const clock = new NewestFirstClock();
    const { peer, bridge } = await connect({ playback: 'real-time', clock });
    bridge.media(800);
    bridge.mark('a');
    bridge.mark('b');
    await peer.until(() => peer.received.length === 3);
    clock.advance(100);
    expect(peer.echoed).to.deep.equal([
      { name: 'a', at: 100 },
      { name: 'b', at: 100 },
    ]);
    await bridge.until(() => bridge.marks().length === 2);
    expect(bridge.marks()).to.deep.equal(['a', 'b']);
  });

  it('paces a live line as Twilio does: a frame every 20 ms, what the callee says and then silence, until stopped', async () => {
    const clock = new ManualClock();
    const { peer, bridge } = await connect({ clock });
    const words = muLawTone(200, 440);
    peer.say(words);
    peer.live();
    clock.advance(60);
    await bridge.until(() => bridge.got.filter((m) => m.event === 'media').length === 3);
    const media = bridge.got.filter((m) => m.event === 'media').map((m) => m.media as { chunk: string; timestamp: string; payload: string });
    expect(media.map((m) => [m.chunk, m.timestamp])).to.deep.equal([
      ['1', '0'],
      ['2', '20'],
      ['3', '40'],
    ]);
    const sent = media.map((m) => Buffer.from(m.payload, 'base64'));
    expect(Buffer.concat(sent).equals(Buffer.concat([words, Buffer.alloc(280, MU_LAW_SILENCE)]))).to.equal(true);
    peer.stop();
    clock.advance(100);
    peer.dtmf('1');
    await bridge.until(() => bridge.got.some((m) => m.event === 'dtmf'));
    expect(bridge.got.map((m) => m.event)).to.deep.equal(['connected', 'start', 'media', 'media', 'media', 'stop', 'dtmf']);
  });

  it('on clear drops the audio not yet played and echoes the pending marks at once, in order', async () => {
    const clock = new ManualClock();
    const { peer, bridge } = await connect({ playback: 'real-time', clock });
    bridge.media(1600);
    bridge.mark('a');
    bridge.media(1600);
    bridge.mark('b');
    await peer.until(() => peer.received.length === 4);
    clock.advance(50);
    bridge.clear();
    await bridge.until(() => bridge.marks().length === 2);
    expect(peer.echoed).to.deep.equal([
      { name: 'a', at: 50 },
      { name: 'b', at: 50 },
    ]);
    expect(peer.clearedBytes).to.equal(2800);
    expect(peer.playedBytes()).to.equal(400);
    clock.advance(1000);
    expect(peer.echoed).to.have.length(2);
    // After the clear, new audio plays from now.
    bridge.media(800);
    bridge.mark('c');
    await peer.until(() => peer.received.length === 7);
    clock.advance(100);
    expect(peer.echoed.at(-1)).to.deep.equal({ name: 'c', at: 1150 });
    expect(peer.playedBytes()).to.equal(1200);
  });

  it('sends a key press as a dtmf message on the inbound track', async () => {
    const { peer, bridge } = await connect({});
    peer.dtmf('5');
    peer.dtmf('#');
    await bridge.until(() => bridge.got.filter((m) => m.event === 'dtmf').length === 2);
    const dtmf = bridge.got.filter((m) => m.event === 'dtmf');
    expect(dtmf[0]).to.deep.equal({ event: 'dtmf', streamSid: 'MZ1', dtmf: { track: 'inbound_track', digit: '5' }, sequenceNumber: '2' });
    expect(dtmf[1]).to.deep.equal({ event: 'dtmf', streamSid: 'MZ1', dtmf: { track: 'inbound_track', digit: '#' }, sequenceNumber: '3' });
  });

  it('encodes A-law as G.711 does', () => {
    // Values from the G.711 tables: silence, full scale positive and negative, and a small negative sample.
    expect([0, 32767, -32768, -8].map(linearToALaw)).to.deep.equal([0xd5, 0xaa, 0x2a, 0x55]);
  });
});
