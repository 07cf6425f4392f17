// The place-a-call form's model: a draft of plain strings and rows as the controls hold them, the placeCall body
// built from it (with every problem the form can see itself, each at its control), the draft read back from a body
// (the Advanced JSON view), and the control an API error (its token, or a problem's field) is about.
import { tokens } from 'virtual:place-call-schema';
import type { PlaceCallRequest } from '../../sdk/src/generated/types.gen.js';
import type { ToolDraft } from './tools-editor.js';

export interface FieldRow {
  name: string;
  type: 'string' | 'boolean' | 'number';
  description: string;
}

export const DAYS = [
  ['mon', 'Monday'],
  ['tue', 'Tuesday'],
  ['wed', 'Wednesday'],
  ['thu', 'Thursday'],
  ['fri', 'Friday'],
  ['sat', 'Saturday'],
  ['sun', 'Sunday'],
] as const;

export interface PlaceDraft {
  to: string;
  objective: string;
  context: string;
  onBehalfOf: string;
  webhookUrl: string;
  callerId: string;
  voice: string;
  language: string;
  /** One `key=value` a line. */
  metadata: string;
  fields: FieldRow[];
  windowStart: string;
  windowEnd: string;
  windowDays: string[];
  windowZone: string;
  voicemail: '' | 'hangup' | 'leave_message';
  voicemailMessage: string;
  redialNoAnswer: string;
  redialVoicemail: string;
  redialAfter: string;
  /** A datetime-local value, in the browser's zone. */
  startAt: string;
  transferTo: string;
  transferMode: '' | 'cold' | 'warm';
  transferWhen: string;
  holdMaxWaitSec: string;
  recordingNotice: '' | 'true' | 'false';
  machineDetection: '' | 'on' | 'off';
  sendDigits: string;
  tools: ToolDraft[];
  /** Properties the form has no control for, typed in the JSON view: sent as they are, so the API names them. */
  extra: Record<string, unknown>;
}

export const EMPTY_DRAFT: PlaceDraft = {
  to: '',
  objective: '',
  context: '',
  onBehalfOf: '',
  webhookUrl: '',
  callerId: '',
  voice: '',
  language: '',
  metadata: '',
  fields: [],
  windowStart: '',
  windowEnd: '',
  windowDays: [],
  windowZone: '',
  voicemail: '',
  voicemailMessage: '',
  redialNoAnswer: '',
  redialVoicemail: '',
  redialAfter: '',
  startAt: '',
  transferTo: '',
  transferMode: '',
  transferWhen: '',
  holdMaxWaitSec: '',
  recordingNotice: '',
  machineDetection: '',
  sendDigits: '',
  tools: [],
  extra: {},
};

/** A problem with the form, at the control whose id it names. */
export interface Problem {
  control: string;
  message: string;
  token?: string;
}

const E164 = /^\+[1-9][0-9]{6,14}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The control each placeCall property is entered at (for a group, its first control). */
export function controlOf(prop: string, draft: PlaceDraft): string {
  switch (prop) {
    case 'fields':
      return draft.fields.length > 0 ? 'field-0-name' : 'f-fields-add';
    case 'tools':
      return draft.tools.length > 0 ? 'tool-0-name' : 'f-tools-add';
    case 'callingWindow':
      return 'f-window-start';
    case 'redial':
      return 'f-redial-after';
    case 'transfer':
      return 'f-transfer-to';
    case 'hold':
      return 'f-hold';
    default:
      return `f-${prop}`;
  }
}

/** The guardrails' tokens, which the schema does not name: each is about the number called or the caller id. */
const GUARDRAILS: Record<string, string> = {
  destination_blocked: 'to',
  destination_opted_out: 'to',
  caller_id_not_owned: 'callerId',
};

/** The control an API error is shown at; the JSON view for a property the form has no control for. */
export function controlOfToken(token: string, message: string, draft: PlaceDraft): string | null {
  if (token === 'unknown_field') return 'f-json';
  const prop = tokens[token] ?? GUARDRAILS[token];
  if (!prop) return null;
  // A message naming a row (`fields.1.name`, `tools.0.url`) is shown at that row's control.
  const row = new RegExp(`\\b${prop}[.\\[](\\d+)`).exec(message);
  const rows = prop === 'fields' ? draft.fields.length : prop === 'tools' ? draft.tools.length : 0;
  if (row && Number(row[1]) < rows) return `${prop === 'fields' ? 'field' : 'tool'}-${row[1]}-name`;
  return controlOf(prop, draft);
}

/**
 * The control a problem of the API's `errors` is shown at, by the field it names (`transfer.to`, `fields.1.name`);
 * by its token and message, as controlOfToken, for a field the form does not know.
 */
export function controlOfProblem(p: { error: string; message: string; field: string }, draft: PlaceDraft): string | null {
  if (p.error === 'unknown_field') return 'f-json';
  const [prop, row] = p.field.split('.');
  if (!Object.values(tokens).includes(prop) && !Object.values(GUARDRAILS).includes(prop)) return controlOfToken(p.error, p.message, draft);
  const rows = prop === 'fields' ? draft.fields.length : prop === 'tools' ? draft.tools.length : 0;
  if (row !== undefined && /^\d+$/.test(row) && Number(row) < rows) return `${prop === 'fields' ? 'field' : 'tool'}-${row}-name`;
  return controlOf(prop, draft);
}

const trimmed = (s: string) => s.trim();

/** The body the draft describes (empty controls left out), and every problem the form can see in it. */
export function bodyOf(d: PlaceDraft): { body: PlaceCallRequest; problems: Problem[] } {
  const problems: Problem[] = [];
  const body: Record<string, unknown> = { ...d.extra };
  const text = (prop: keyof PlaceDraft & string) => {
    const v = trimmed(d[prop] as string);
    if (v !== '') body[prop] = v;
  };
  if (trimmed(d.to) === '') problems.push({ control: 'f-to', message: 'Enter the number to call.' });
  else if (!E164.test(trimmed(d.to))) problems.push({ control: 'f-to', message: 'Write the number to call with a plus sign and its country code, such as +14155550123.' });
  if (trimmed(d.objective) === '') problems.push({ control: 'f-objective', message: 'Say what the call should achieve.' });
  for (const p of ['to', 'objective', 'context', 'onBehalfOf', 'webhookUrl', 'callerId', 'voice', 'language', 'sendDigits'] as const) text(p);
  if (trimmed(d.callerId) !== '' && !E164.test(trimmed(d.callerId))) problems.push({ control: 'f-callerId', message: 'Write the caller id with a plus sign and its country code, or leave it empty.' });

  const lines = d.metadata.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 0) {
    const pairs: Record<string, string> = {};
    for (const l of lines) {
      const at = l.indexOf('=');
      if (at < 1) problems.push({ control: 'f-metadata', message: `Write each metadata line as key=value; "${l.trim()}" has no key.` });
      else pairs[l.slice(0, at).trim()] = l.slice(at + 1).trim();
    }
    body.metadata = pairs;
  }

  if (d.fields.length > 0) {
    const seen = new Set<string>();
    body.fields = d.fields.map((f, i) => {
      const name = f.name.trim();
      if (!FIELD_NAME.test(name)) {
        problems.push({ control: `field-${i}-name`, message: `Field ${i + 1}: a name starts with a letter or underscore, then letters, digits or underscores (at most 64).` });
      } else if (seen.has(name)) {
        problems.push({ control: `field-${i}-name`, message: `Field ${i + 1}: another field is already called ${name}.` });
      }
      seen.add(name);
      const field: Record<string, string> = { name, type: f.type };
      if (f.description.trim() !== '') field.description = f.description.trim();
      return field;
    });
  }

  if (d.windowStart !== '' || d.windowEnd !== '' || d.windowDays.length > 0 || trimmed(d.windowZone) !== '') {
    if (d.windowStart === '') problems.push({ control: 'f-window-start', message: 'Give the time the calling window opens.' });
    if (d.windowEnd === '') problems.push({ control: 'f-window-end', message: 'Give the time the calling window closes.' });
    else if (d.windowStart !== '' && d.windowEnd <= d.windowStart) problems.push({ control: 'f-window-end', message: 'The calling window must close after it opens.' });
    const window: Record<string, unknown> = { start: d.windowStart, end: d.windowEnd };
    if (d.windowDays.length > 0) window.days = DAYS.map(([day]) => day).filter((day) => d.windowDays.includes(day));
    if (trimmed(d.windowZone) !== '') window.timeZone = trimmed(d.windowZone);
    body.callingWindow = window;
  }

  if (d.voicemail === 'hangup') body.voicemail = { action: 'hangup' };
  if (d.voicemail === 'leave_message') {
    if (trimmed(d.voicemailMessage) === '') problems.push({ control: 'f-voicemail-message', message: 'Write the message to leave after the beep.' });
    body.voicemail = { action: 'leave_message', message: trimmed(d.voicemailMessage) };
  }

  if (d.redialNoAnswer !== '' || d.redialVoicemail !== '' || d.redialAfter !== '') {
    if (d.redialAfter === '') problems.push({ control: 'f-redial-after', message: 'Say how many minutes to wait before calling again (5 to 1440).' });
    const redial: Record<string, number> = { afterMinutes: Number(d.redialAfter) };
    if (d.redialNoAnswer !== '') redial.onNoAnswer = Number(d.redialNoAnswer);
    if (d.redialVoicemail !== '') redial.onVoicemail = Number(d.redialVoicemail);
    body.redial = redial;
  }

  if (d.startAt !== '') {
    const at = new Date(d.startAt);
    if (Number.isNaN(at.getTime())) problems.push({ control: 'f-startAt', message: 'Give a date and time to dial at.' });
    else body.startAt = at.toISOString();
  }

  if (trimmed(d.transferTo) !== '' || d.transferMode !== '' || trimmed(d.transferWhen) !== '') {
    if (trimmed(d.transferTo) === '') problems.push({ control: 'f-transfer-to', message: 'Give the number of the person to transfer to.' });
    const transfer: Record<string, string> = { to: trimmed(d.transferTo) };
    if (d.transferMode !== '') transfer.mode = d.transferMode;
    if (trimmed(d.transferWhen) !== '') transfer.when = trimmed(d.transferWhen);
    body.transfer = transfer;
  }

  if (d.holdMaxWaitSec !== '') body.hold = { maxWaitSec: Number(d.holdMaxWaitSec) };
  if (d.recordingNotice !== '') body.recordingNotice = d.recordingNotice === 'true';
  if (d.machineDetection !== '') body.machineDetection = d.machineDetection;

  if (d.tools.length > 0) {
    body.tools = d.tools.map((t, i) => {
      const tool: Record<string, unknown> = {};
      for (const key of ['name', 'description', 'url'] as const) if (t[key].trim() !== '') tool[key] = t[key].trim();
      if (t.parameters.trim() !== '') {
        try {
          tool.parameters = JSON.parse(t.parameters);
        } catch {
          problems.push({ control: `tool-${i}-parameters`, message: `The parameters of tool ${i + 1} are not valid JSON.` });
        }
      }
      if (t.timeoutMs.trim() !== '') tool.timeoutMs = Number(t.timeoutMs);
      return tool;
    });
  }
  return { body: body as unknown as PlaceCallRequest, problems };
}

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
const obj = (v: unknown): Record<string, unknown> => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const KNOWN = new Set([
  'to',
  'objective',
  'context',
  'onBehalfOf',
  'webhookUrl',
  'callerId',
  'voice',
  'language',
  'sendDigits',
  'metadata',
  'fields',
  'callingWindow',
  'voicemail',
  'redial',
  'startAt',
  'transfer',
  'hold',
  'recordingNotice',
  'machineDetection',
  'tools',
]);

/** A datetime-local value for an ISO date-time, in the browser's zone. */
function localInput(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The draft a body (the JSON view's) describes: its inverse of bodyOf for what the form has controls for. */
export function draftOf(b: Record<string, unknown>): PlaceDraft {
  const window = obj(b.callingWindow);
  const voicemail = obj(b.voicemail);
  const redial = obj(b.redial);
  const transfer = obj(b.transfer);
  const extra = Object.fromEntries(Object.entries(b).filter(([k]) => !KNOWN.has(k)));
  return {
    ...EMPTY_DRAFT,
    to: str(b.to),
    objective: str(b.objective),
    context: str(b.context),
    onBehalfOf: str(b.onBehalfOf),
    webhookUrl: str(b.webhookUrl),
    callerId: str(b.callerId),
    voice: str(b.voice),
    language: str(b.language),
    sendDigits: str(b.sendDigits),
    metadata: Object.entries(obj(b.metadata))
      .map(([k, v]) => `${k}=${str(v)}`)
      .join('\n'),
    fields: (Array.isArray(b.fields) ? b.fields : []).map((f) => {
      const o = obj(f);
      const type = o.type === 'boolean' || o.type === 'number' ? o.type : 'string';
      return { name: str(o.name), type, description: str(o.description) };
    }),
    windowStart: str(window.start),
    windowEnd: str(window.end),
    windowDays: Array.isArray(window.days) ? window.days.map(str) : [],
    windowZone: str(window.timeZone),
    voicemail: voicemail.action === 'hangup' || voicemail.action === 'leave_message' ? voicemail.action : '',
    voicemailMessage: str(voicemail.message),
    redialNoAnswer: str(redial.onNoAnswer),
    redialVoicemail: str(redial.onVoicemail),
    redialAfter: str(redial.afterMinutes),
    startAt: typeof b.startAt === 'string' ? localInput(b.startAt) : '',
    transferTo: str(transfer.to),
    transferMode: transfer.mode === 'cold' || transfer.mode === 'warm' ? transfer.mode : '',
    transferWhen: str(transfer.when),
    holdMaxWaitSec: str(obj(b.hold).maxWaitSec),
    recordingNotice: b.recordingNotice === true ? 'true' : b.recordingNotice === false ? 'false' : '',
    machineDetection: b.machineDetection === 'on' || b.machineDetection === 'off' ? b.machineDetection : '',
    tools: (Array.isArray(b.tools) ? b.tools : []).map((t) => {
      const o = obj(t);
      return { name: str(o.name), description: str(o.description), parameters: o.parameters === undefined ? '' : JSON.stringify(o.parameters), url: str(o.url), timeoutMs: str(o.timeoutMs) };
    }),
    extra,
  };
}
