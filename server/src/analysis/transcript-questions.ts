// Finds, in a transcript's text, where the agent asked for each field and what the callee said next.
import type { FieldDefinition } from '../generated/types.gen.js';
import { SPEAKER_LABEL, type Speaker } from '../conversation/conversation.js';
import { fieldLabel, fieldType } from '../conversation/field-label.js';
import type { Lexicon } from '../conversation/lexicon.js';
import { isSpeech } from '../conversation/turn-marks.js';
import { normalise } from './answer-reader.js';

export interface TranscriptLine {
  speaker: Speaker;
  text: string;
}

const SPEAKERS = new Map(Object.entries(SPEAKER_LABEL).map(([speaker, label]) => [label, speaker as Speaker]));

/** `Speaker: text` lines; lines of another shape are not turns and are skipped. */
export function readTranscript(transcript: string): TranscriptLine[] {
  return transcript.split('\n').flatMap((line) => {
    const m = /^(\w+): ?(.*)$/.exec(line.trim());
    const speaker = m && SPEAKERS.get(m[1]);
    return speaker ? [{ speaker, text: m[2] }] : [];
  });
}

function key(text: string): string {
  return normalise(text).toLowerCase();
}

/** Whether a line is a question ending with the label, as in "Could you tell me the closing time?". */
function asksFor(line: string, label: string): boolean {
  const text = key(line);
  if (!/[?？]$/u.test(text)) return false;
  const body = text.replace(/[\s?？]+$/u, '');
  if (!body.endsWith(label)) return false;
  const before = body.charAt(body.length - label.length - 1);
  return before === '' || !/[\p{L}\p{N}]/u.test(before);
}

export interface FieldExchange {
  /** Whether the agent asked for the field. */
  asked: boolean;
  /** The callee's line right after the question; null when the agent spoke next or the transcript ends. */
  reply: string | null;
  /** The reply's index among the transcript's turns; null with no reply. */
  replyTurn: number | null;
}

/** Whether the line ends with one of the scripted agent's own phrasings (they cycle) of the question for a field. */
function asksInScriptedWords(line: string, field: FieldDefinition, lexicon: Lexicon): boolean {
  const text = key(line);
  const seen = new Set<string>();
  for (let v = 0; v < 16; v += 1) {
    const question = key(lexicon.agent.ask(fieldLabel(field), fieldType(field), v));
    if (seen.has(question)) break;
    if (text.endsWith(question)) return true;
    seen.add(question);
  }
  return false;
}

/**
 * The agent's introduction ("… Is now a good time?") is never a question for a field: the line that opens with the
 * scripted agent's hello, else the agent's first line of words (keys pressed and an option said to a menu before
 * it are not its introduction). Each later agent line goes to a field it asks in the scripted agent's exact
 * phrasing, else to one whose label it ends with; then to the
 * longest label (so "closing time" beats "time"), then the first such field not yet asked. A field's answer is
 * the callee's next line.
 */
export function findExchanges(transcript: string, fields: readonly FieldDefinition[], lexicon: Lexicon): Map<string, FieldExchange> {
  const lines = readTranscript(transcript);
  const labels = new Map(fields.map((f) => [f.name, key(fieldLabel(f))]));
  const exchanges = new Map<string, FieldExchange>(fields.map((f) => [f.name, { asked: false, reply: null, replyTurn: null }]));
  const hello = lines.findIndex((line) => line.speaker === 'agent' && line.text.startsWith(lexicon.agent.hello));
  const opening = hello >= 0 ? hello : lines.findIndex((line) => line.speaker === 'agent' && isSpeech(line));
  lines.forEach((line, i) => {
    if (line.speaker !== 'agent' || i === opening || !isSpeech(line)) return;
    const asking = fields.filter((f) => asksFor(line.text, labels.get(f.name)!));
    // The scripted agent asks a bare name as a person would ("Are you open on Sunday?"), not ending with the label.
    const exact = fields.filter((f) => asksInScriptedWords(line.text, f, lexicon));
    const matching = exact.length > 0 ? exact : asking;
    const longest = Math.max(...matching.map((f) => labels.get(f.name)!.length));
    // A repeated question goes to a same-label field not yet asked, never to a field with a shorter label.
    const field = matching.find((f) => labels.get(f.name)!.length === longest && !exchanges.get(f.name)!.asked);
    if (!field) return;
    const next = lines[i + 1];
    const answered = next?.speaker === 'callee';
    exchanges.set(field.name, { asked: true, reply: answered ? next.text : null, replyTurn: answered ? i + 1 : null });
  });
  return exchanges;
}
