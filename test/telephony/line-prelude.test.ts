// The sandbox's business lines on a live line, frame by frame: the key menu hears the agent's keys as DTMF tones in
// its audio, goes on with the right ones and repeats on a wrong one, and takes keys pressed ahead; the spoken menu
// takes the agent's words after its prompt for the script's option and repeats on keys; both say their prompt again
// after eight seconds with nothing from the agent; the queue plays its recording and then a minute of steady music.
// Each recording is told to the sandbox's recogniser as it begins.
import { expect } from 'chai';
import { CONNECTING, HOLD_ANNOUNCEMENT, KEY_MENU, menuPrompt, SPOKEN_MENU } from '../../server/src/conversation/sandbox-menus.js';
import type { OverheardPart } from '../../server/src/speech/oracle/oracle-recognizer.js';
import { dtmfTones } from '../../server/src/tones/dtmf-tones.js';
import { LinePrelude, NO_INPUT_MS, type PreludeKind } from '../../server/src/telephony/sandbox/line-prelude.js';
import { frameDbfs } from '../../server/src/voice-agent/cascaded/voice-activity.js';
import { decodeMuLaw } from '../../server/src/speech/audio.js';
import { muLawTone } from '../support/fake-media-peer.js';

const FIRST = menuPrompt(KEY_MENU, 'keys');
const DELIVERIES = menuPrompt(KEY_MENU.options[1]!.next!, 'keys');
const SPOKEN = menuPrompt(SPOKEN_MENU, 'spoken');
/** A recording as a steady tone, 10 ms a character, so each one's length is known. */
const recorded = (text: string) => muLawTone(text.length * 80, 300);
/** Call time the line has played a recording begun at `startMs` by: the end of its last 20 ms frame. */
const playedBy = (startMs: number, text: string) => startMs + Math.ceil((text.length * 80) / 160) * 20;

/** A line with a prelude, stepped 20 ms at a time; the agent's audio is queued and played out as a line would. */
function line(kind: PreludeKind) {
  const heard: OverheardPart[] = [];
  const prelude = new LinePrelude(kind, { say: recorded, spokenOption: 'billing' }, (part) => heard.push(part));
  let atMs = 0;
  let agent = Buffer.alloc(0);
  const frames: Buffer[] = [];
  return {
    heard,
    prelude,
    frames,
    get atMs() {
      return atMs;
    },
    /** The agent plays this audio from now. */
    agentPlays(audio: Buffer) {
      agent = Buffer.concat([agent, audio]);
    },
    /** Runs the line until call time `untilMs`. */
    run(untilMs: number) {
      for (; atMs < untilMs; atMs += 20) {
        const out = agent.length > 0 ? agent.subarray(0, 160) : null;
        agent = agent.subarray(Math.min(160, agent.length));
        frames.push(prelude.frame(atMs, out && out.length === 160 ? out : out && Buffer.concat([out, Buffer.alloc(160 - out.length, 0xff)])));
      }
    },
    /** Runs until the line says something more, and returns it. */
    next(limitMs = 60_000): OverheardPart {
      const before = heard.length;
      for (const end = atMs + limitMs; heard.length === before && atMs < end; ) this.run(atMs + 20);
      expect(heard.length, 'the line said something more').to.equal(before + 1);
      return heard.at(-1)!;
    },
  };
}

describe("the sandbox's business lines on a live line", () => {
  it('plays the key menu’s prompt at the pick-up and goes on with the keys it hears, to a person', () => {
    const l = line('key_menu');
    expect(l.next()).to.deep.equal({ text: FIRST, startMs: 400, endMs: 400 + FIRST.length * 10, endOfTurn: true });
    l.run(l.heard[0]!.endMs + 1000);
    l.agentPlays(dtmfTones('2'));
    const pressedAt = l.atMs;
    // The keys play 200 ms; the menu answers 500 ms after them.
    expect(l.next()).to.include({ text: DELIVERIES, startMs: pressedAt + 200 + 500 });
    l.run(l.heard[1]!.endMs + 200);
    l.agentPlays(dtmfTones('1'));
    expect(l.next().text).to.equal(CONNECTING);
    expect(l.prelude.done).to.equal(false);
    l.run(l.heard[2]!.endMs + 20);
    expect(l.prelude.done).to.equal(true);
  });

  it('says a wrong key is not valid and repeats the level, and takes keys pressed ahead of a prompt one after the other', () => {
    const l = line('key_menu');
    l.next();
    l.agentPlays(dtmfTones('9'));
    expect(l.next().text).to.equal(`Sorry, that is not a valid choice. ${FIRST}`);
    l.agentPlays(dtmfTones('23'));
    expect(l.next().text).to.equal(CONNECTING);
  });

  it('hears keys after the agent’s words in one stretch of its audio, and nothing but keys as keys', () => {
    const l = line('key_menu');
    l.run(l.next().endMs + 100);
    l.agentPlays(Buffer.concat([muLawTone(3200, 440), dtmfTones('0')]));
    expect(l.next().text).to.equal(CONNECTING);
    const words = line('key_menu');
    words.run(words.next().endMs + 100);
    words.agentPlays(muLawTone(3200, 440));
    words.run(words.atMs + 2000);
    expect(words.heard).to.have.length(1);
  });

  it('says its prompt again after eight seconds with nothing from the agent', () => {
    const l = line('key_menu');
    const prompt = l.next();
    const again = l.next();
    expect(again).to.include({ text: `Sorry, I did not get that. ${FIRST}` });
    expect(again.startMs).to.equal(playedBy(prompt.startMs, FIRST) + NO_INPUT_MS + 500);
  });

  it('takes the agent’s words after the spoken menu’s prompt for the script’s option, ignoring words over the prompt', () => {
    const l = line('spoken_menu');
    const prompt = l.next();
    expect(prompt.text).to.equal(SPOKEN);
    l.run(prompt.startMs + 1000);
    l.agentPlays(muLawTone(4000, 440));
    l.run(prompt.endMs);
    expect(l.heard).to.have.length(1);
    l.run(prompt.endMs + 300);
    l.agentPlays(muLawTone(4000, 440));
    expect(l.next().text).to.equal(CONNECTING);
  });

  it('repeats the spoken menu for keys, which it did not ask for', () => {
    const l = line('spoken_menu');
    l.run(l.next().endMs + 300);
    l.agentPlays(dtmfTones('2'));
    expect(l.next().text).to.equal(`Sorry, I did not get that. ${SPOKEN}`);
  });

  it('plays the queue’s recording, then a minute of hold music at one level, then lets the person on', () => {
    const l = line('hold');
    const announcement = l.next();
    expect(announcement).to.deep.equal({ text: HOLD_ANNOUNCEMENT, startMs: 400, endMs: 400 + HOLD_ANNOUNCEMENT.length * 10, endOfTurn: true });
    const musicFrom = playedBy(400, HOLD_ANNOUNCEMENT);
    l.run(musicFrom + 60_000);
    expect(l.prelude.done).to.equal(false);
    const music = l.frames.slice(musicFrom / 20).map((f) => frameDbfs(decodeMuLaw(f)));
    expect(music).to.have.length(3000);
    expect(Math.max(...music) - Math.min(...music)).to.be.below(1);
    expect(Math.min(...music)).to.be.within(-20, -15);
    l.run(l.atMs + 20);
    expect(l.prelude.done).to.equal(true);
    expect(l.heard).to.have.length(1);
  });
});
