// The transfer to a person (the placement's `transfer`): the tool transfer_call, offered only on a call placed with
// one, and what the agent notes of it in the turns. Both modes end the same way: the agent asks to leave the call
// (ToolContext.handOver) once its words have played, and the session hands the line over instead of hanging up.
//
// Cold: the model says it is transferring and calls the tool; the line hands the callee over to the number.
// Warm: the model asks the callee to hold and calls the tool with a briefing; the line calls the person, who hears
// the briefing and takes the call (or not). The model is answered with how it went: taken, it tells the callee it
// is connecting them and calls the tool again, and the line joins the two; not taken, it tells the callee and
// carries on or says goodbye. The person's line is hung up if the transfer does not go ahead (the session ends
// first). One attempt a call: a transfer nobody took is not tried again.
import type { CallTransfer } from '../store/calls-repo.js';
import type { ConsultOutcome, Consultation } from '../telephony/live-line.js';
import type { Logger } from 'pino';
import type { Handover, Tool, ToolContext, ToolOutput, ToolRegistry } from './tools.js';
import type { TurnLedger } from './turn-ledger.js';

export const TRANSFER_TOOL = 'transfer_call';

/** The longest briefing the person is read (a third of a minute or so at a speaking rate). */
export const MAX_BRIEFING_CHARS = 600;

/** What the agent notes in the turns of a transfer: no speech, a turn of its own in brackets (as keys are). */
export const TRANSFER_NOTES = {
  calling: (briefing: string) => `[calling the transfer number: "${briefing}"]`,
  outcome: {
    accepted: '[the person took the call]',
    no_answer: '[nobody answered the transfer number]',
    declined: '[the person did not take the call]',
    failed: '[the transfer number could not be called]',
  } satisfies Record<ConsultOutcome, string>,
  transferred: '[transferred the call]',
} as const;

const NOBODY_TOOK =
  'Nobody took the call. Tell the callee politely that nobody is available right now; then carry on with the objective, or say goodbye and call end_call. Do not try to transfer again.';

/** The call's registry with transfer_call after svc's own tools, for a call placed with a transfer; `base` otherwise. */
export function withTransfer(transfer: CallTransfer | null | undefined, base: ToolRegistry): ToolRegistry {
  return transfer ? base.with([transferTool(transfer)]) : base;
}

/** The transfer_call of one call: it keeps where the call's one transfer is. */
export function transferTool(transfer: CallTransfer): Tool {
  return transfer.mode === 'warm' ? warmTransfer(transfer) : coldTransfer(transfer);
}

function coldTransfer(transfer: CallTransfer): Tool {
  let asked = false;
  return {
    name: TRANSFER_TOOL,
    description:
      'Transfer the call to a person. First tell the callee, in one short sentence, that you are transferring them now; then call it. The callee is handed over once your words have played, and you leave the call.',
    parameters: { type: 'object', properties: {}, required: [] },
    async run(_args, ctx) {
      if (asked) return undefined;
      const refused = await refusal(transfer, ctx);
      if (refused || ctx.signal?.aborted) return refused ?? undefined;
      asked = true;
      ctx.handOver!({ to: transfer.to, move: () => ctx.line.transfer(transfer.to), abandon: () => undefined });
      return undefined;
    },
  };
}

function warmTransfer(transfer: CallTransfer): Tool {
  let state: 'ready' | 'calling' | 'accepted' | 'joining' | 'over' = 'ready';
  let consultation: Consultation | null = null;
  return {
    name: TRANSFER_TOOL,
    description:
      'Transfer the call to a person, after briefing them. First ask the callee to hold while you reach someone; then call it with a briefing for the person who answers. You are answered once they have taken the call or nobody did. If they took it, tell the callee in one short sentence that you are connecting them, then call it again (without a briefing): they are joined once your words have played, and you leave the call.',
    parameters: {
      type: 'object',
      properties: {
        briefing: {
          type: 'string',
          description: `What the person is told before they take the call, in the language of the call: who is on the line, why they called, and what you have learnt so far. At most ${MAX_BRIEFING_CHARS} characters.`,
        },
      },
      required: [],
    },
    async run(args, ctx) {
      if (state === 'calling') return { error: 'The person is being called already: wait for the answer.' };
      if (state === 'joining') return undefined;
      if (state === 'over') return { error: 'The transfer is over on this call: do not try again. Carry on with the objective, or say goodbye and call end_call.' };
      if (state === 'accepted') {
        if (!(await consultation!.stillThere())) {
          state = 'over';
          return { status: 'hung_up', note: 'The person hung up before you connected them. Tell the callee politely; then carry on, or say goodbye and call end_call.' };
        }
        state = 'joining';
        const joined = consultation!;
        ctx.handOver!({ to: transfer.to, move: () => joined.join(), abandon: () => void joined.release() });
        return undefined;
      }
      const briefing = typeof args.briefing === 'string' ? args.briefing.trim().replace(/\s+/g, ' ') : '';
      if (!briefing) return { error: 'Give a briefing for the person: who is on the line, why they called, and what you have learnt so far.' };
      if (briefing.length > MAX_BRIEFING_CHARS) return { error: `The briefing must be at most ${MAX_BRIEFING_CHARS} characters; make it shorter.` };
      const refused = await refusal(transfer, ctx);
      if (refused) return refused;
      // The session ended while the list was read: nobody is called.
      if (ctx.signal?.aborted) return undefined;
      state = 'calling';
      ctx.note?.(TRANSFER_NOTES.calling(briefing));
      const call = ctx.line.consult({ to: transfer.to, briefing, language: ctx.language ?? 'en-US' });
      consultation = call;
      // The session ends before the callee is joined: the person's line is not left ringing or waiting.
      ctx.signal?.addEventListener('abort', () => {
        if (state === 'calling' || state === 'accepted') void call.release();
      });
      const outcome = await call.outcome;
      if (ctx.signal?.aborted) return undefined;
      ctx.note?.(TRANSFER_NOTES.outcome[outcome]);
      ctx.logger.info({ callId: ctx.callId, outcome }, 'the person of the warm transfer was called');
      if (outcome === 'accepted') {
        state = 'accepted';
        return { status: 'accepted', note: 'The person took the call and is waiting. Tell the callee in one short sentence that you are connecting them now, then call transfer_call again.' };
      }
      state = 'over';
      return { status: outcome, note: NOBODY_TOOK };
    },
  };
}

/** Why the transfer cannot be made now (the line cannot hand over, or the number went on the do-not-call list), or null. */
async function refusal(transfer: CallTransfer, ctx: ToolContext): Promise<ToolOutput | null> {
  if (!ctx.handOver) return { error: 'This line cannot transfer the call. Tell the callee you cannot put them through, and carry on.' };
  if (await ctx.listed?.(transfer.to).catch(() => false)) {
    ctx.logger.warn({ callId: ctx.callId }, 'the transfer number is on the do-not-call list now; the transfer is refused');
    return { error: 'The transfer number may not be called. Tell the callee you cannot put them through, and carry on.' };
  }
  return null;
}

/**
 * The session's last act on a call it hands over (the agent's words have played): the line's move, noted in the
 * turns; false, logged, when the carrier could not, and the session then hangs up as after a goodbye.
 */
export async function handOver(handover: Handover, ledger: Pick<TurnLedger, 'note' | 'nowMs'>, logger: Logger, callId: string): Promise<boolean> {
  try {
    await handover.move();
  } catch (err) {
    logger.error({ callId, err: (err as Error).message }, 'the line could not be handed over; hanging up');
    return false;
  }
  ledger.note('svc_handover', 'agent', ledger.nowMs, ledger.nowMs, TRANSFER_NOTES.transferred);
  logger.info({ callId }, 'the call was handed over to a person');
  return true;
}
