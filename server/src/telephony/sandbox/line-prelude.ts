// The sandbox's business lines on a live line (conversation/sandbox-menus.ts), before their person comes on. The key
// menu hears the agent's keys in the agent's audio, as a telephone exchange does (dtmf-decoder.ts: each stretch of
// the agent's audio is decoded once it falls silent), and goes on, or says the key is not valid and repeats; keys
// pressed ahead of a prompt are taken in turn. The spoken menu takes the agent's words, once it has spoken after the
// prompt, for the option the call's script says (the sandbox's callee has no recogniser of its own); keys are not
// what it asked for, and it repeats. Either menu says its prompt again after NO_INPUT_MS with nothing from the agent.
// The queue plays its recording and then its hold music for HOLD_MUSIC_MS. Every prompt is told to the sandbox's
// recogniser as it begins, as the callee's lines are.
import { HOLD_ANNOUNCEMENT, HOLD_MUSIC_MS, type MenuStep, SandboxMenu } from '../../conversation/sandbox-menus.js';
import type { OverheardPart } from '../../speech/oracle/oracle-recognizer.js';
import { decodeDtmf } from '../dtmf-decoder.js';
import { holdMusic } from '../../tones/hold-music.js';

/** When the line's first recording starts after the pick-up. */
const FIRST_AT_MS = 400;
/** How long after the agent's input the menu answers. */
const ANSWER_AFTER_MS = 500;
/** How long a menu waits for the agent after its prompt before it says it again. */
export const NO_INPUT_MS = 8000;
const FRAME_BYTES = 160;
const SILENCE_BYTE = 0xff;

export type PreludeKind = 'key_menu' | 'spoken_menu' | 'hold';

export interface PreludeVoice {
  /** A recording of the business line's, spoken (8 kHz mu-law). */
  say(text: string): Buffer;
  /** The option the call's script says to a spoken menu (null when it says none). */
  spokenOption: string | null;
}

export class LinePrelude {
  private readonly menu: SandboxMenu | null;
  /** What plays now, from when, and what comes after it. */
  private playing: { audio: Buffer; at: number; then: 'listen' | 'music' | 'done' } | null = null;
  /** Call time from which the menu listens for the agent (its prompt over), or null while it plays or waits to answer. */
  private listeningSince: number | null = null;
  /** The agent's audio since it last fell silent, and when its stretch began. */
  private heard: Buffer[] = [];
  /** The menu's answer to the agent, due at `at`. */
  private answer: { step: MenuStep; at: number } | null = null;
  private musicFrom: number | null = null;
  private started = false;
  private over = false;

  constructor(
    readonly kind: PreludeKind,
    private readonly voice: PreludeVoice,
    private readonly overhear: (part: OverheardPart) => void,
  ) {
    this.menu = kind === 'hold' ? null : new SandboxMenu(kind === 'key_menu' ? 'keys' : 'spoken');
  }

  /** Whether the person has come on (the prelude has nothing more to play). */
  get done(): boolean {
    return this.over;
  }

  /** The callee's 20 ms frame at call time `atMs`; `agent` is the agent's frame heard in it (null when silent). */
  frame(atMs: number, agent: Buffer | null): Buffer {
    if (this.over) return silence();
    if (!this.started && atMs >= FIRST_AT_MS) {
      // The line picks up and plays its first recording.
      this.started = true;
      if (this.menu) this.play(this.menu.opening(), atMs, 'listen');
      else this.play(HOLD_ANNOUNCEMENT, atMs, 'music');
    }
    if (this.menu) this.listen(atMs, agent);
    if (this.answer && atMs >= this.answer.at) {
      const { step } = this.answer;
      this.answer = null;
      this.play(step.say, atMs, step.connected ? 'done' : 'listen');
    }
    return this.sound(atMs);
  }

  /** The menu hears the agent: keys once their stretch of audio ends, words after the prompt, or nothing for too long. */
  private listen(atMs: number, agent: Buffer | null): void {
    if (agent) {
      this.heard.push(agent);
      return;
    }
    if (this.heard.length > 0) {
      const audio = Buffer.concat(this.heard);
      this.heard = [];
      this.agentDid(audio, atMs);
      return;
    }
    if (this.listeningSince !== null && atMs - this.listeningSince >= NO_INPUT_MS) this.respond(this.menu!.silence(), atMs);
  }

  /** A stretch of the agent's audio, just ended: its keys, or its words. */
  private agentDid(audio: Buffer, atMs: number): void {
    const menu = this.menu!;
    const keys = decodeDtmf(audio)
      .map((k) => k.key)
      .filter((k) => k !== '?');
    if (keys.length > 0) {
      let step: MenuStep | null = null;
      for (const key of keys) {
        step = menu.pressed(key);
        if (step.connected) break;
      }
      this.respond(step!, atMs);
      return;
    }
    // Words: the spoken menu takes them once its prompt is over; the key menu waits for a key.
    if (menu.kind !== 'spoken' || this.listeningSince === null) return;
    const step = menu.said(this.voice.spokenOption ?? '');
    if (step) this.respond(step, atMs);
  }

  private respond(step: MenuStep, atMs: number): void {
    this.playing = null;
    this.listeningSince = null;
    this.answer = { step, at: atMs + ANSWER_AFTER_MS };
  }

  private play(text: string, atMs: number, then: 'listen' | 'music' | 'done'): void {
    const audio = this.voice.say(text);
    this.overhear({ text, startMs: atMs, endMs: atMs + audio.length / 8, endOfTurn: true });
    this.playing = { audio, at: atMs, then };
    this.listeningSince = null;
  }

  /** The line's 20 ms at `atMs`: what plays, then what comes after it. */
  private sound(atMs: number): Buffer {
    const p = this.playing;
    if (p) {
      const from = (atMs - p.at) * 8;
      const out = silence();
      p.audio.copy(out, 0, Math.max(0, from), Math.min(p.audio.length, from + FRAME_BYTES));
      if (from + FRAME_BYTES >= p.audio.length) {
        this.playing = null;
        if (p.then === 'listen') this.listeningSince = atMs + 20;
        else if (p.then === 'music') this.musicFrom = atMs + 20;
        else this.over = true;
      }
      return out;
    }
    if (this.musicFrom !== null) {
      const into = atMs - this.musicFrom;
      if (into >= HOLD_MUSIC_MS) {
        this.over = true;
        return silence();
      }
      return holdMusic(into * 8, FRAME_BYTES);
    }
    return silence();
  }
}

const silence = () => Buffer.alloc(FRAME_BYTES, SILENCE_BYTE);
