// The sandbox's live lines, when the agent talks on lines (SVC_AGENT=cascaded): each answered call gets a line
// (sandbox-line.ts) in the process that dialled it, opened at the answer, with the agent joined to it and the
// sandbox's callee on the other end. The line's end is written to the sandbox's ledger (sandbox_dials), which the
// carrier reads for the engine, so the engine may run in any process; the recording both legs made is written
// before the end is, so a call that ends has its recording.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { lineBriefOf, type LineBrief } from '../../conversation/conversation.js';
import { encodeWav } from '../../recording/encode-wav.js';
import { writeRecording, type RecordingDirs } from '../../recording/write-recording.js';
import { forgetOverheard, type OverheardPart, overhear } from '../../speech/oracle/oracle-recognizer.js';
import { findCall, setRecordingPath } from '../../store/calls/call-by-id.js';
import { markSandboxHungUp } from '../../store/calls/sandbox-dials.js';
import type { Database } from '../../store/schema.js';
import type { SandboxScenario } from '../../numbers/sandbox-numbers.js';
import type { LineAgent } from '../live-line.js';
import { type CalleeLine, LineCallee, mannerOf } from './line-callee.js';
import { LinePrelude, type PreludeVoice } from './line-prelude.js';
import { SandboxLine } from './sandbox-line.js';

/** What the sandbox's callee says on a call, as audio: its person's lines, and its business line's recordings. */
export interface CalleeScript {
  lines: CalleeLine[];
  recordings: PreludeVoice;
}

/** The composition root gives it (the simulated callee's lines, spoken). */
export type CalleeVoice = (brief: LineBrief) => Promise<CalleeScript>;

export interface SandboxLinesOptions {
  timeScale: number;
  recordings: RecordingDirs;
  logger: Logger;
}

export class SandboxLines {
  /** The lines up in this process, by carrier ref. */
  private readonly lines = new Map<string, SandboxLine>();
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly agent: LineAgent,
    private readonly calleeVoice: CalleeVoice,
    private readonly options: SandboxLinesOptions,
  ) {}

  /** The call will be answered at `answerAt` (wall ms): its line opens then; a dropping call's line drops `dropAfterMs` later. */
  schedule(ref: string, callId: string, scenario: SandboxScenario, answerAt: number, dropAfterMs?: number): void {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.open(ref, callId, scenario, dropAfterMs).catch((err: Error) => this.options.logger.error({ callId, err: err.message }, 'the sandbox line did not open'));
      },
      Math.max(0, answerAt - Date.now()),
    );
    this.timers.add(timer);
  }

  /** The engine hung up: the line, if up in this process, ends under the agent. */
  takeDown(ref: string): void {
    this.lines.get(ref)?.takeDown();
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const line of this.lines.values()) line.takeDown();
  }

  private async open(ref: string, callId: string, scenario: SandboxScenario, dropAfterMs?: number): Promise<void> {
    const row = await findCall(this.db, callId);
    if (!row || (row.status !== 'dialing' && row.status !== 'in_progress')) return;
    const logger = this.options.logger.child({ callId });
    const brief = lineBriefOf(row);
    const script = await this.calleeVoice(brief);
    const heard = (part: OverheardPart) => overhear(callId, part);
    const prelude = scenario === 'key_menu' || scenario === 'spoken_menu' || scenario === 'hold' ? new LinePrelude(scenario, script.recordings, heard) : null;
    const callee = new LineCallee(script.lines, mannerOf(scenario), heard, prelude);
    const line = new SandboxLine(callee, { timeScale: this.options.timeScale, dropAtMs: dropAfterMs, logger });
    this.lines.set(ref, line);
    const session = this.agent.join(brief, line, logger);
    line.start(session);
    const end = await line.ended;
    const wallEnd = Date.now();
    await session.done.catch(() => undefined);
    this.lines.delete(ref);
    forgetOverheard(callId);
    try {
      const { twoChannels, mix } = line.legs();
      await writeRecording(this.options.recordings, callId, encodeWav(twoChannels, 8000, 2), 2);
      const path = await writeRecording(this.options.recordings, callId, encodeWav(mix, 8000));
      await setRecordingPath(this.db, callId, path);
    } catch (err) {
      logger.error({ err: (err as Error).message }, 'could not write the sandbox line recording');
    }
    // A dropped line is the carrier's own news (its timeline); a hang-up by either party is written for the engine.
    if (end.by !== 'carrier') await markSandboxHungUp(this.db, ref, wallEnd);
  }
}
