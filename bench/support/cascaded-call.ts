// One call of the cascaded-agent bench (bench/cascaded-latency.ts), the same for every call, and the three providers'
// fakes it talks to, in the benchmark's own process, each with a fixed and known delay:
//   - the recogniser: the fake Deepgram (test/support/fake-deepgram.ts), scripted with the callee's words over the
//     spans where svc's own voice activity detector hears them, its final sent RECOGNISER_FINAL_MS after the audio
//     that ends them came in;
//   - the chat model: the fake OpenAI-compatible stream (test/support/fake-chat-stream.ts), its first token
//     CHAT_FIRST_TOKEN_MS after the request, carrying the reply's first sentence whole (so the voice can be asked at
//     once), the rest in pieces PACE_MS apart, so the reply is still streaming when its first sentence is spoken;
//   - the voice: the fake OpenAI speech endpoint (test/support/fake-openai-speech.ts), its first audio
//     VOICE_FIRST_AUDIO_MS after its head, a character of text making one 20 ms frame of line audio.
// The callee is espeak-ng speech (test/voice-agent/cascaded/line-audio.ts) laid on a line of 20 ms mu-law frames;
// where each of their turns starts and ends, and the frame at which the detector decides it started, are read off
// that same audio by svc's own detector (voice-activity.ts), so the bench knows to the frame what svc hears. Every
// reply's first sentence names its call and reply ("Call 7, reply 2: …"), so each voice request is matched to the
// model's reply it speaks.
import { FRAME_MS, loadFvad, VoiceActivity } from '../../server/src/voice-agent/cascaded/voice-activity.js';
import { type DeepgramStep, FAKE_DEEPGRAM_KEY, FakeDeepgram } from '../../test/support/fake-deepgram.js';
import { type FakeChatStream, startFakeChatStream } from '../../test/support/fake-chat-stream.js';
import { type FakeOpenAiSpeech, startFakeOpenAiSpeech } from '../../test/support/fake-openai-speech.js';
import { Line, speak } from '../../test/voice-agent/cascaded/line-audio.js';

export const RECOGNISER_FINAL_MS = 150;
export const CHAT_FIRST_TOKEN_MS = 300;
export const VOICE_FIRST_AUDIO_MS = 150;
/** The fakes' share of every answer: the recogniser's final, the model's first token, the voice's first audio. */
export const FAKES_MS = RECOGNISER_FINAL_MS + CHAT_FIRST_TOKEN_MS + VOICE_FIRST_AUDIO_MS;
/** Between the model's later chunks. */
const PACE_MS = 40;
/** The voice speaks a character in 20 ms: one frame of line audio (160 mu-law bytes) a character. */
const MS_PER_CHAR = 20;
export const BYTES_PER_CHAR = 160;
const CHAT_KEY = 'sk-bench-chat-5d8e1f0a7c3b';
const TTS_KEY = 'sk-bench-voice-2a9c6e4f8b1d';

/** The agent's replies: a first sentence (named by call and reply), then one of 20 characters or more, so svc's sentence splitter and the relay's cut them alike. */
const REPLIES: Array<[string, string]> = [
  ['hello, I am an assistant calling for a customer.', 'May I ask you a quick question?'],
  ['is the shop open on Sunday?', 'The customer would like to drop off a parcel.'],
  ['of course, take your time.', 'The customer would like to drop off a parcel on Sunday morning, and wanted to know before driving over.'],
  ['thank you, that helps a lot!', 'I will let the customer know right away.'],
  ['goodbye!', 'Have a very nice day, and thank you again.'],
];
/** The callee's turns; the third comes over the agent's long third reply (a barge-in). */
const CALLEE = ['Yes, hello?', 'Let me check for you.', 'Yes, we are open until four.', 'You too, goodbye.'];
export const BARGE_TURN = 3;
/** Silence between the end of the agent's expected reply and the callee's next turn; the barge-in comes this far into the reply. */
const GAP_MS = 1000;
const BARGE_INTO_MS = 1150;

/** A reply's sentences, as the voice is asked to speak them. */
export function replySentences(call: number, reply: number): [string, string] {
  const [first, second] = REPLIES[reply]!;
  return [`Call ${call}, reply ${reply}: ${first}`, second];
}

/** The line audio a reply makes, in bytes. */
export function replyBytes(call: number, reply: number): number {
  return replySentences(call, reply).reduce((n, s) => n + s.length * BYTES_PER_CHAR, 0);
}

/** A callee turn as svc's detector hears it (call time, ms). */
export interface CalleeTurn {
  text: string;
  startMs: number;
  endMs: number;
  /** The end of the frame at which the detector says the speech started. */
  startDecidedMs: number;
}

/** The callee's side of every call: its frames (mu-law, 20 ms each), its turns, and the recogniser's script for them. */
export interface CalleeLine {
  frames: Buffer[];
  turns: CalleeTurn[];
  script: DeepgramStep[];
}

/** The callee's line: each turn laid where the agent's expected reply before it has ended, plus a gap; the barge-in into the long reply. */
export async function calleeLine(): Promise<CalleeLine> {
  const utterances = await Promise.all(CALLEE.map((t) => speak(t)));
  const replyMs = (reply: number) => (replyBytes(999, reply) / BYTES_PER_CHAR) * MS_PER_CHAR;
  const answerAfterMs = FAKES_MS + 150; // the fakes and svc's turn-taking wait, before svc's own time
  const ats: number[] = [];
  let agentEnds = CHAT_FIRST_TOKEN_MS + VOICE_FIRST_AUDIO_MS + replyMs(0);
  utterances.forEach((u, i) => {
    const turn = i + 1;
    const start = turn === BARGE_TURN ? agentEnds - replyMs(turn - 1) + BARGE_INTO_MS : agentEnds + GAP_MS;
    const at = Math.ceil((start - u.startMs) / FRAME_MS) * FRAME_MS;
    ats.push(at);
    agentEnds = at + u.endMs + answerAfterMs + replyMs(turn);
  });
  const line = new Line(Math.ceil((agentEnds + GAP_MS) / FRAME_MS) * FRAME_MS);
  for (const [i, u] of utterances.entries()) line.say(ats[i]!, u);
  const frames = line.frames();

  // svc's detector on the same frames: where it hears each turn start and stop, and when it decides it started.
  const vad = new VoiceActivity(await loadFvad());
  const starts: Array<{ atMs: number; decidedMs: number }> = [];
  const stops: number[] = [];
  frames.forEach((frame, i) => {
    for (const e of vad.push(frame)) {
      if (e.type === 'started') starts.push({ atMs: e.atMs, decidedMs: (i + 1) * FRAME_MS });
      else stops.push(e.atMs);
    }
  });
  vad.close();
  if (starts.length !== CALLEE.length || stops.length !== CALLEE.length) {
    throw new Error(`svc's detector heard ${starts.length} starts and ${stops.length} stops on the callee's line, not ${CALLEE.length}`);
  }
  const turns = CALLEE.map((text, i) => ({ text, startMs: starts[i]!.atMs, endMs: stops[i]!, startDecidedMs: starts[i]!.decidedMs }));
  const script: DeepgramStep[] = [];
  let at = 0;
  for (const t of turns) {
    script.push({ afterBytes: (t.startMs - at) * 8, silence: true }, { afterBytes: (t.endMs - t.startMs) * 8, text: t.text });
    at = t.endMs;
  }
  return { frames, turns, script };
}

/** What the chat model answers: the reply the conversation is at (its user messages), for the call its system message names. */
function chatReply(body: { messages: Array<{ role: string; content: string | null }> }) {
  const call = Number(/\(call (\d+)\)/.exec(String(body.messages[0]?.content))?.[1] ?? -1);
  const reply = Math.min(body.messages.filter((m) => m.role === 'user').length, REPLIES.length - 1);
  const [first, second] = replySentences(call, reply);
  // The first token carries the first sentence and what follows it, so the sentence is known to end there.
  const rest = second.slice(1).split(' ');
  const third = Math.ceil(rest.length / 3);
  const pieces = [0, 1, 2].map((k) => rest.slice(k * third, (k + 1) * third).join(' ')).filter(Boolean);
  const text = [`${first} ${second[0]}`, pieces[0]!, ...pieces.slice(1).map((p) => ` ${p}`)];
  return { text, firstTokenDelayMs: CHAT_FIRST_TOKEN_MS, paceMs: PACE_MS };
}

/** The three fakes of one run; every call uses the same script. */
export class CascadedFakes {
  private constructor(
    readonly recogniser: FakeDeepgram,
    readonly chat: FakeChatStream,
    readonly voice: FakeOpenAiSpeech,
  ) {}

  static async start(line: CalleeLine): Promise<CascadedFakes> {
    const [recogniser, chat, voice] = await Promise.all([
      FakeDeepgram.start({ script: line.script, finalDelayMs: RECOGNISER_FINAL_MS, keepAudio: false }),
      startFakeChatStream({ flavour: 'openai', apiKey: CHAT_KEY, answer: chatReply }),
      startFakeOpenAiSpeech({ apiKey: TTS_KEY, msPerChar: MS_PER_CHAR, firstAudioDelayMs: VOICE_FIRST_AUDIO_MS }),
    ]);
    return new CascadedFakes(recogniser, chat, voice);
  }

  /** The providers' settings, as svc reads them (the relay reads the same names). */
  env(): Record<string, string> {
    return {
      SVC_STT: 'deepgram',
      SVC_STT_URL: this.recogniser.url,
      SVC_STT_API_KEY: FAKE_DEEPGRAM_KEY,
      SVC_AGENT_LLM: 'openai',
      SVC_AGENT_LLM_BASE_URL: this.chat.baseUrl,
      SVC_AGENT_LLM_API_KEY: CHAT_KEY,
      SVC_TTS: 'openai',
      SVC_TTS_URL: this.voice.baseUrl,
      SVC_TTS_API_KEY: TTS_KEY,
    };
  }

  /** Bytes the recogniser had received when the fakes last forgot what they saw. */
  private recognisedBefore = 0;

  /** The callee's audio the recogniser received, in bytes, over every stream (since `forget`). */
  get recognisedBytes(): number {
    return this.recogniser.connections.reduce((n, c) => n + c.audioBytes, 0) - this.recognisedBefore;
  }

  /** Drops what the fakes saw so far (a warm-up call's requests and audio): what is measured starts now. */
  forget(): void {
    this.recognisedBefore += this.recognisedBytes;
    this.chat.requests.length = 0;
    this.voice.requests.length = 0;
  }

  /**
   * For every reply the model streamed whole: how long before its stream ended the first voice request for it came
   * (negative: after). Measured on this process's one clock.
   */
  sentenceLeads(): number[] {
    const firstVoice = new Map<string, number>();
    for (const r of this.voice.requests) {
      const m = /^Call (\d+), reply (\d+):/.exec(String(r.body?.input));
      const key = m ? `${m[1]}/${m[2]}` : null;
      if (key && !firstVoice.has(key)) firstVoice.set(key, r.at);
    }
    const leads: number[] = [];
    for (const r of this.chat.requests) {
      if (r.endedAt === null) continue;
      const call = /\(call (\d+)\)/.exec(String(r.body.messages[0]?.content))?.[1];
      const reply = Math.min(r.body.messages.filter((m: { role: string }) => m.role === 'user').length, REPLIES.length - 1);
      const voiceAt = firstVoice.get(`${call}/${reply}`);
      if (voiceAt !== undefined) leads.push(r.endedAt - voiceAt);
    }
    return leads;
  }

  async close(): Promise<void> {
    await Promise.all([this.recogniser.close(), this.chat.close(), this.voice.close()]);
  }
}
