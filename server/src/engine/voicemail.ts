// A voicemail message left on a machine: planned when its greeting ends, said by the carrier, and the call ended
// voicemail once it is over (or where a cancel cut it).
import type { CallRow } from '../store/calls-repo.js';
import type { LineEvent } from '../telephony/carrier.js';
import { formatTranscript, recordTurns, speechMs, type TimedTurn } from '../conversation/conversation.js';
import { recordingRequestJson, type Tone } from '../recording/recorder.js';
import { settled } from './finish.js';
import type { EngineState, StepContext, VoicemailDrop } from './step-context.js';

/** After the message, a moment of silence before the hang-up, so the machine keeps the message's last word. */
const MESSAGE_TAIL_MS = 500;
/** The beep's pitch, where the carrier told of it (the sandbox's machine). */
const BEEP_HZ = 1000;

/**
 * The greeting is over: the message is said from here (by the carrier on a line that carries speech), and the
 * line is hung up after it, within the maximum call duration counted from the machine's pick-up.
 */
export async function planMessage(ctx: StepContext, row: CallRow, state: EngineState, e: Extract<LineEvent, { kind: 'greeting_ended' }>): Promise<VoicemailDrop> {
  const { carrier, settings } = ctx.deps;
  const text = row.voicemail_message!;
  const startMs = Math.max(0, Math.round((e.at - e.pickedUpAt) / carrier.timeScale));
  const maxMs = settings.maxCallDurationSec * 1000;
  const endMs = Math.min(maxMs, startMs + speechMs(text));
  const turns: TimedTurn[] = [];
  const tones: Tone[] = [];
  if (e.greeting) {
    turns.push({ speaker: 'callee', text: e.greeting.text, startMs: 0, endMs: e.greeting.endMs });
    tones.push({ startMs: e.greeting.beepStartMs, endMs: e.greeting.beepEndMs, hz: BEEP_HZ });
  }
  turns.push({ speaker: 'agent', text, startMs, endMs });
  await carrier.leaveMessage?.(row.carrier_ref!, state.line, { text, language: row.language ?? 'en-US', voice: row.voice ?? 'alloy' }, ctx.deps.clock.now());
  const talkMs = Math.min(maxMs, endMs + MESSAGE_TAIL_MS);
  return { pickedUpAt: e.pickedUpAt, turns, tones, talkMs, endsAt: e.pickedUpAt + Math.round(talkMs * carrier.timeScale) };
}

/** Ends a call whose machine took (or, cut short, began to take) the message: voicemail, billed for its time. */
export async function finishVoicemail(ctx: StepContext, row: CallRow, state: EngineState, connectedMs: number, left: boolean): Promise<void> {
  const { carrier, clock } = ctx.deps;
  const vm = state.voicemail!;
  const said = vm.turns.filter((t) => t.startMs < connectedMs);
  const recording = carrier.recordsCalls ? {} : { recording_request_json: recordingRequestJson({ turns: said, totalMs: connectedMs, language: row.language ?? 'en-US', tones: vm.tones }) };
  const set = { transcript: said.length ? formatTranscript(said) : null, turns_json: JSON.stringify(recordTurns(said, connectedMs)), ...recording, engine_state: JSON.stringify(state) };
  await ctx.apply(row, { type: 'voicemail_left', at: clock.now(), pickedUpAt: vm.pickedUpAt, connectedMs, left }, set, null, false, [], settled(row.id, said, connectedMs));
}
