// One socket to the realtime model, confirmed before it is used: the session.update is sent as the socket opens,
// and the link is ready only once the server answers session.updated with G.711 mu-law both ways (the phone
// line's audio). An `error` before that (the update refused: the socket stays open on PCM16 defaults, noise on a
// phone line), a session.updated in other formats, a socket that closes, or no confirmation within the bound,
// and the link is given up: nothing the model sent on it reaches the line. openConfirmedLink tries a new socket
// once more before giving up.
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { WebSocket, type RawData } from 'ws';
import { turnWrites } from '../telephony/turn-writes.js';
import type { RealtimeProtocol } from './realtime-protocol.js';

type Json = Record<string, unknown>;

/** How long a socket has, from dialling it, to confirm its session: a few handshakes' worth of a healthy server. */
export const CONFIRM_TIMEOUT_MS = 3000;

export interface LinkTarget {
  url: string;
  model: string;
  apiKey: string;
  protocol: RealtimeProtocol;
  /** The bound on each socket's confirmation; CONFIRM_TIMEOUT_MS unless told. */
  confirmTimeoutMs?: number;
}

export type LinkFailure = 'rejected' | 'unconfirmed' | 'closed' | 'timeout';

export class LinkFailed extends Error {
  constructor(readonly why: LinkFailure) {
    super(`realtime session not confirmed: ${why}`);
    this.name = 'LinkFailed';
  }
}

/** A confirmed socket. Events after the confirmation wait for the listener, in order. */
export class RealtimeLink {
  private onEvent: ((e: Json) => void) | null = null;
  private onClose: ((code: number) => void) | null = null;
  private readonly waiting: Json[] = [];
  private closedCode: number | null = null;
  private closing = false;
  /** Corks the socket while an event sends on it (turn-writes.ts); nothing until the upgrade gives the socket. */
  private batch: () => void = () => undefined;

  constructor(private readonly ws: WebSocket) {
    ws.once('upgrade', (res: IncomingMessage) => (this.batch = turnWrites(res.socket)));
    ws.on('close', (code: number) => {
      this.closedCode = code;
      if (!this.closing) this.onClose?.(code);
    });
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN && !this.closing;
  }

  /** Called by the opener with each event after the confirmation. */
  deliver(e: Json): void {
    if (this.onEvent) this.onEvent(e);
    else this.waiting.push(e);
  }

  /** Takes the link's events from now on (those that came before first), and hears of its socket closing. */
  listen(onEvent: (e: Json) => void, onClose: (code: number) => void): void {
    this.onEvent = onEvent;
    this.onClose = onClose;
    for (const e of this.waiting.splice(0)) onEvent(e);
    if (this.closedCode !== null && !this.closing) onClose(this.closedCode);
  }

  send(event: Json): void {
    if (!this.open) return;
    this.batch();
    this.ws.send(JSON.stringify(event));
  }

  /** Closes it on purpose: no close is reported. */
  close(): void {
    this.closing = true;
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    else if (this.ws.readyState === WebSocket.CONNECTING) this.ws.terminate();
  }
}

/**
 * An audio delta as the server writes it (these fields in this order, no spaces; either protocol's event name), read
 * by this pattern rather than parsed: the model's speech comes 50 of them a second on every call it talks on.
 */
const AUDIO_DELTA_AS_SENT =
  /^\{"type":"(response\.output_audio\.delta|response\.audio\.delta)","event_id":"([\w-]*)","response_id":"([\w-]*)","item_id":"([\w-]*)","output_index":(0|[1-9]\d*),"content_index":(0|[1-9]\d*),"delta":"([A-Za-z0-9+/]*={0,2})"\}$/;

/** A server event: an object (an array passes too, and is ignored by type); null for anything else. */
export function readServerEvent(text: string): Json | null {
  const d = AUDIO_DELTA_AS_SENT.exec(text);
  if (d) return { type: d[1], event_id: d[2], response_id: d[3], item_id: d[4], output_index: Number(d[5]), content_index: Number(d[6]), delta: d[7] };
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Json) : null;
  } catch {
    return null;
  }
}

/** Opens one socket, sends the session.update, and resolves once the server confirms it; else LinkFailed. */
export function openLink(target: LinkTarget, sessionUpdate: Json, logger: Logger): Promise<RealtimeLink> {
  const url = new URL(target.url);
  url.searchParams.set('model', target.model);
  // Compression is not offered: base64 audio gains little from it and would cost CPU on every frame.
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${target.apiKey}`, ...target.protocol.headers }, perMessageDeflate: false });
  const link = new RealtimeLink(ws);
  return new Promise<RealtimeLink>((resolve, reject) => {
    let confirmed = false;
    const fail = (why: LinkFailure) => {
      if (confirmed) return;
      confirmed = true; // settled: nothing more from this socket matters
      clearTimeout(timer);
      link.close();
      reject(new LinkFailed(why));
    };
    const timer = setTimeout(() => fail('timeout'), target.confirmTimeoutMs ?? CONFIRM_TIMEOUT_MS);
    ws.on('open', () => ws.send(JSON.stringify({ ...sessionUpdate, event_id: 'svc_session_update' })));
    ws.on('message', (data: RawData) => {
      const e = readServerEvent(data.toString());
      if (!e) return;
      if (confirmed) return link.deliver(e);
      if (e.type === 'session.updated') {
        if (!target.protocol.confirms(e.session)) {
          logger.warn('realtime session.updated without mu-law both ways; giving the session up');
          return fail('unconfirmed');
        }
        confirmed = true;
        clearTimeout(timer);
        resolve(link);
      } else if (e.type === 'error') {
        const err = typeof e.error === 'object' && e.error !== null ? (e.error as Json) : {};
        // The message may quote the request; the type and code say what went wrong.
        logger.warn({ type: err.type ?? null, code: err.code ?? null, param: err.param ?? null }, 'realtime session refused');
        fail('rejected');
      }
      // Anything else before the confirmation (session.created, or audio of a session not yet in mu-law) is dropped.
    });
    // The error's message may quote the server's reply, never the key; log its code only.
    ws.on('error', (err: NodeJS.ErrnoException) => {
      logger.warn({ code: err.code ?? null }, 'realtime socket error');
      fail('closed');
    });
    ws.on('close', () => fail('closed'));
  });
}

/** A confirmed link, trying `attempts` sockets in turn (a new socket each time); LinkFailed from the last. */
export async function openConfirmedLink(target: LinkTarget, sessionUpdate: Json, logger: Logger, attempts = 2): Promise<RealtimeLink> {
  for (let i = 1; ; i++) {
    try {
      return await openLink(target, sessionUpdate, logger);
    } catch (err) {
      if (!(err instanceof LinkFailed) || i >= attempts) throw err;
      logger.warn({ why: err.why, attempt: i }, 'realtime session not confirmed; trying a new one');
    }
  }
}
