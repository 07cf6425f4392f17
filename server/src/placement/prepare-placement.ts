// Turns a schema-valid placement request into the call to create: resolves the defaults (caller id from the
// request, the key, then the account; voice from the request, the key, then the platform; language explicit,
// inferred or auto) and applies the guardrails, in the documented order: a transfer to the number called
// (invalid_transfer), invalid_voice, invalid_language, destination_blocked (`to`, then the transfer's). Every
// guardrail whose inputs are sound is run and every problem kept, so that a 400 can list them all. The caller
// id is resolved and checked against the account's numbers with the minute cap, in the placement's one read of the
// account (placement.ts), after the do-not-call list: caller_id_not_owned comes last, before the cap.
import type { ApiKeyRow } from '../accounts/accounts-repo.js';
import type { CallingWindow, CallMetadata, ClientTool, FieldDefinition, LanguageSource, PlaceCallRequest, RequestProblem, Transfer } from '../generated/types.gen.js';
import type { CallTransfer, StoredTool } from '../store/calls-repo.js';
import { ApiError, problemOf, problemsError } from '../errors/api-error.js';
import type { IrsfList } from '../numbers/irsf.js';
import { applyWindow, type AppliedWindow } from '../schedule/calling-window.js';
import { scheduledAt } from '../schedule/start-at.js';
import type { AgentCatalogue } from './agent-catalogue.js';
import { checkDestination } from './destination.js';
import { resolveLanguage, type AheadDetection } from './language.js';
import { resolveVoice } from './voice.js';

export interface PreparedCall {
  to: string;
  objective: string;
  context: string | null;
  fields: FieldDefinition[] | null;
  webhookUrl: string | null;
  /** The request's callerId, else the key's default; null falls back to the account's default. */
  callerId: string | null;
  voice: string;
  language: string;
  languageSource: LanguageSource;
  /** The client's own pairs, kept and returned as given; never told to the carrier, the agent or the analyst. */
  metadata: CallMetadata | null;
  /** What to say after an answering machine's beep; null to hang up on one. */
  voicemailMessage: string | null;
  /** When to dial (epoch ms), for a call placed with startAt or under a calling window; null to dial at once. */
  scheduledAt: number | null;
  /** The calling window it is dialled in (the request's, else the key's default); null for none. */
  callingWindow: AppliedWindow | null;
  /** The redials the call may lead to; null for none. */
  redial: RedialPolicy | null;
  /** `off`: no answering-machine detection (the request's, else the key's default); null: on. */
  machineDetection: 'off' | null;
  /** On whose behalf the agent calls (the request's, else the key's); null for "a customer". */
  onBehalfOf: string | null;
  /** Whether the agent says the call is recorded (the request's, else the key's, else yes). */
  recordingNotice: boolean;
  /** The keys the carrier presses once the call is answered; null for none. */
  sendDigits: string | null;
  /** The client's tools with their defaults resolved; null for none. (Absent on a batch's call stored before them.) */
  tools?: StoredTool[] | null;
  /** The transfer to a person with its defaults filled in; null for none. (Absent on a batch's call stored before it.) */
  transfer?: CallTransfer | null;
  /** The longest the agent waits on hold at a time, in seconds; null for the default. (Absent on a batch's call stored before it.) */
  holdMaxWaitSec?: number | null;
}

export interface RedialPolicy {
  onNoAnswer: number;
  onVoicemail: number;
  afterMinutes: number;
}

export interface PlacementPorts {
  catalogue: AgentCatalogue;
  irsf: IrsfList;
}

export function preparePlacement(ports: PlacementPorts, key: ApiKeyRow, body: PlaceCallRequest, now: number, ahead?: AheadDetection): PreparedCall {
  const checked = checkGuardrails(ports, key, body, now, ahead);
  if (checked.problems.length > 0) throw problemsError(checked.problems);
  return checked.call!;
}

/** The numbers and caller id the account's checks read (placement.ts); null where that check is not run. */
export interface AccountReads {
  /** The number called, once it passed its guardrails. */
  to: string | null;
  /** The transfer's number, once it passed its guardrails. */
  transferTo: string | null;
  /** Whether the caller id is checked: not when the request's `callerId` failed the schema. */
  callerIdChecked: boolean;
  /** The request's callerId, else the key's default; null falls back to the account's default. */
  callerId: string | null;
}

export interface GuardrailCheck {
  /** Every guardrail's problem, in the documented order; empty when the call may go on to the account's checks. */
  problems: RequestProblem[];
  /** The call to create, when there are no problems and the schema passed (`unsound` was empty). */
  call: PreparedCall | null;
  reads: AccountReads;
}

const NOTHING_UNSOUND: ReadonlySet<string> = new Set();

/**
 * Every guardrail of a placement request, each whose inputs are sound: `unsound` names the top-level properties
 * the schema refused (bodyProblems), and a check reading one of them is not run, nor one needing an earlier check
 * to pass (the calling window needs a callable number and a sound startAt; the transfer's number is not checked
 * again when it is the number called). The problems are in preparePlacement's order, so the first is the one a
 * request with a valid schema is refused with.
 */
export function checkGuardrails(ports: PlacementPorts, key: ApiKeyRow, body: PlaceCallRequest, now: number, ahead?: AheadDetection, unsound: ReadonlySet<string> = NOTHING_UNSOUND): GuardrailCheck {
  const problems: RequestProblem[] = [];
  const sound = (prop: string) => !unsound.has(prop);
  const failed = (err: unknown, field: string) => {
    if (!(err instanceof ApiError)) throw err;
    problems.push(problemOf(err, field));
  };

  let start: number | null = null;
  let startSound = sound('startAt');
  try {
    if (startSound) start = scheduledAt(body.startAt, now);
  } catch (err) {
    failed(err, 'startAt');
    startSound = false;
  }
  const destination = sound('to') ? checkDestination(body.to, ports.irsf) : null;
  if (destination && !destination.ok && destination.token === 'invalid_number') problems.push({ error: 'invalid_number', message: destination.message, field: 'to' });
  const transfer = sound('transfer') && body.transfer ? callTransfer(body.transfer) : null;
  const toSelf = transfer !== null && sound('to') && transfer.to === body.to;
  if (toSelf) problems.push({ error: 'invalid_transfer', message: `\`transfer.to\` is the number called (${body.to}); a transfer goes to another number.`, field: 'transfer.to' });

  const voice = sound('voice') ? resolveVoice(body.voice, key.default_voice, ports.catalogue.voices, ports.catalogue.defaultVoice) : null;
  if (voice && !voice.ok) problems.push({ error: voice.token, message: voice.message, field: 'voice' });

  // An explicit language is checked on its own; an inferred one never fails, and is only kept for a sound request.
  const region = destination?.ok ? destination.region : 'US';
  const text = { objective: sound('objective') ? body.objective : '', context: sound('context') ? body.context : null };
  const language = sound('language') ? resolveLanguage({ language: body.language, ...text, region }, ports.catalogue.languages, ahead) : null;
  if (language && !language.ok) problems.push({ error: language.token, message: language.message, field: 'language' });

  if (destination && !destination.ok && destination.token === 'destination_blocked') problems.push({ error: 'destination_blocked', message: destination.message, field: 'to' });
  // The transfer's number passes the same guardrails as the number called (the schema has checked it is valid).
  const handover = transfer === null || toSelf ? null : checkDestination(transfer.to, ports.irsf);
  if (handover && !handover.ok) problems.push({ error: handover.token, message: `\`transfer.to\` cannot be called: ${handover.message}`, field: 'transfer.to' });

  // The window is read in the number's zones, so it is checked once the number is known to be callable.
  const windowSpec = sound('callingWindow') ? (body.callingWindow ?? keyWindow(key)) : null;
  let window: { window: AppliedWindow; opening: number } | null = null;
  try {
    if (windowSpec !== null && destination?.ok && startSound) window = applyWindow(windowSpec, destination.e164, start ?? now);
  } catch (err) {
    failed(err, 'callingWindow');
  }

  const reads: AccountReads = {
    to: destination?.ok ? destination.e164 : null,
    transferTo: handover?.ok ? transfer!.to : null,
    callerIdChecked: sound('callerId'),
    callerId: (sound('callerId') ? body.callerId : undefined) ?? key.default_caller_id ?? null,
  };
  if (problems.length > 0 || unsound.size > 0 || !destination?.ok || !voice?.ok || !language?.ok) return { problems, call: null, reads };
  const call: PreparedCall = {
    to: destination.e164,
    objective: body.objective,
    context: body.context ?? null,
    fields: body.fields ?? null,
    webhookUrl: body.webhookUrl ?? null,
    callerId: reads.callerId,
    voice: voice.voice,
    language: language.language,
    languageSource: language.languageSource,
    metadata: body.metadata ?? null,
    voicemailMessage: body.voicemail?.action === 'leave_message' ? body.voicemail.message : null,
    scheduledAt: window === null ? start : window.opening,
    callingWindow: window === null ? null : window.window,
    redial: body.redial ? { onNoAnswer: body.redial.onNoAnswer ?? 0, onVoicemail: body.redial.onVoicemail ?? 0, afterMinutes: body.redial.afterMinutes } : null,
    machineDetection: (body.machineDetection ?? key.machine_detection ?? 'on') === 'off' ? 'off' : null,
    onBehalfOf: body.onBehalfOf ?? key.on_behalf_of ?? null,
    recordingNotice: body.recordingNotice ?? key.recording_notice !== 0,
    sendDigits: body.sendDigits ?? null,
    tools: body.tools && body.tools.length > 0 ? body.tools.map(storedTool) : null,
    transfer,
    holdMaxWaitSec: body.hold?.maxWaitSec ?? null,
  };
  return { problems, call, reads };
}

/** What the agent is told when to transfer, when the placement does not say. */
export const DEFAULT_TRANSFER_WHEN = 'the callee asks to speak to a person';

/** A transfer as the call keeps it (the schema has checked it): cold unless told, on the default condition unless told. */
function callTransfer(t: Transfer): CallTransfer {
  return { to: t.to, mode: t.mode ?? 'cold', when: t.when ?? DEFAULT_TRANSFER_WHEN };
}

/** The parameters of a tool placed without any: it takes no arguments. */
export const NO_PARAMETERS = { type: 'object', properties: {} } as const;
/** How long a tool is waited for when the placement does not say. */
export const DEFAULT_TOOL_TIMEOUT_MS = 5000;

/** A client tool as the call keeps it (the schema has checked it: its name, its parameters, its url). */
function storedTool(t: ClientTool): StoredTool {
  return { name: t.name, description: t.description, parameters: { ...(t.parameters ?? NO_PARAMETERS) }, url: t.url, timeoutMs: t.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS };
}

/** The key's default calling window; null for none. */
function keyWindow(key: ApiKeyRow): CallingWindow | null {
  return key.calling_window_json === null || key.calling_window_json === undefined ? null : (JSON.parse(key.calling_window_json) as CallingWindow);
}

/** The caller id to dial from: the call's, else the account's default; it must be a number on the account. */
export function checkCallerId(requested: string | null, accountDefault: string | null, owned: boolean): string {
  const callerId = requested ?? accountDefault;
  if (callerId === null) {
    throw new ApiError(400, 'caller_id_not_owned', 'No callerId was given and neither the key nor the account has a default caller id; add a number to the account.');
  }
  if (!owned) throw new ApiError(400, 'caller_id_not_owned', `${callerId} is not a number on this account.`);
  return callerId;
}
