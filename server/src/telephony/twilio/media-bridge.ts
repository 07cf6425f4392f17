// The media bridge: the WebSocket Twilio opens for an answered call (<Connect><Stream>), joined to the agent.
// A stream is accepted only for a call that is dialling or in progress; its `start` must name the call's
// carrier ref as callSid and carry the call's token, or the socket is closed (1008) before any audio flows.
// Once it is, the stream is a live line (twilio-line.ts) and the agent joins it (telephony/live-line.ts).
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import { LIVE_STATUSES } from '../../calls/call-status.js';
import { lineBriefOf } from '../../conversation/conversation.js';
import type { Database } from '../../store/schema.js';
import type { CallRow } from '../../store/calls-repo.js';
import { findCall } from '../../store/calls/call-by-id.js';
import type { AgentHangUp, Consultation, ConsultRequest, LineAgent, LineSession } from '../live-line.js';
import type { HandoverCall } from './handover.js';
import { parseTwilioMessage } from './media-messages.js';
import { MEDIA_STREAM_PATH, MEDIA_TOKEN_PARAMETER, validMediaStreamToken } from './media-stream.js';
import { deliver, TwilioLine } from './twilio-line.js';
import { RELAY_HEADER, relayStream } from './media-relay.js';
import { awaitsGreetingEnd, watchVerdict } from './amd-verdict.js';
import { turnWrites } from '../turn-writes.js';

export interface MediaBridgeDeps {
  db: Kysely<Database>;
  agent: LineAgent;
  /** The secret the stream tokens are made with (see mediaStreamToken); shared with the carrier. */
  streamSecret: string;
  /** Ends the call on the carrier (the agent said goodbye, or lost its model). */
  hangUp(call: { callId: string; callSid: string; reason: AgentHangUp }): Promise<void>;
  /** Hands the call over to another number on the carrier; without it, a transfer fails. */
  transfer?(call: HandoverCall, to: string): Promise<void>;
  /** Calls a warm transfer's person on the carrier; without it, nobody is reached. */
  consult?(call: HandoverCall, request: ConsultRequest): Consultation;
  logger: Logger;
  /** How long an accepted socket may wait for a valid `start` before it is closed. */
  startTimeoutMs?: number;
  /** This process's internal URL: a stream for a call whose warm session another process holds is relayed there. */
  internalUrl?: string;
  /** How often a call that awaits its answering-machine verdict reads it (amd-verdict.ts). */
  verdictPollMs?: number;
}

export interface MediaBridge {
  /** Resolves when every session running now has ended and written its turns. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const POLICY_VIOLATION = 1008;

export function attachMediaBridge(server: Server, deps: MediaBridgeDeps): MediaBridge {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sessions = new Map<string, LineSession>();
  const log = deps.logger;

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0];
    if (!path.startsWith(MEDIA_STREAM_PATH)) {
      // Not a media stream; when nothing else upgrades on this server, say so rather than leave it hanging.
      if (server.listenerCount('upgrade') === 1) refuse(socket, 404);
      return;
    }
    let callId: string;
    try {
      callId = decodeURIComponent(path.slice(MEDIA_STREAM_PATH.length));
    } catch {
      return refuse(socket, 404);
    }
    findCall(deps.db, callId).then(
      (row) => {
        if (!row || !(LIVE_STATUSES as readonly string[]).includes(row.status) || !row.carrier_ref) {
          log.warn({ callId, status: row?.status ?? null }, 'media stream refused: no such live call');
          return refuse(socket, 404);
        }
        const serveHere = () => wss.handleUpgrade(req, socket, head, (ws) => accept(ws, socket, row));
        const holder = row.agent_host;
        if (holder && deps.internalUrl && holder !== deps.internalUrl && !req.headers[RELAY_HEADER]) return relayStream(wss, req, socket, head, holder, callId, log, serveHere);
        serveHere();
      },
      (err: Error) => {
        log.error({ callId, err: err.message }, 'media stream refused: store unavailable');
        refuse(socket, 503);
      },
    );
  };

  /** `socket` is the stream's own (the one the upgrade came on), corked while an event sends on it. */
  function accept(ws: WebSocket, socket: Duplex, row: CallRow): void {
    const callId = row.id;
    let session: LineSession | null = null;
    const startTimer = setTimeout(() => ws.close(POLICY_VIOLATION, 'no start'), deps.startTimeoutMs ?? 10_000);
    const batch = turnWrites(socket);
    const send = (data: string) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      batch();
      ws.send(data);
    };

    ws.on('message', (data: RawData) => {
      const msg = parseTwilioMessage(data.toString());
      if (!msg) return;
      if (msg.event === 'start') {
        if (session) return;
        clearTimeout(startTimer);
        if (!validMediaStreamToken(deps.streamSecret, callId, msg.customParameters[MEDIA_TOKEN_PARAMETER]) || msg.callSid !== row.carrier_ref) {
          log.warn({ callId, streamSid: msg.streamSid }, 'media stream refused: bad token or call sid');
          return ws.close(POLICY_VIOLATION, 'invalid stream');
        }
        if (sessions.has(callId)) {
          log.warn({ callId, streamSid: msg.streamSid }, 'media stream refused: the call already has one');
          return ws.close(POLICY_VIOLATION, 'stream already open');
        }
        const streamSid = msg.streamSid;
        const callSid = msg.callSid;
        const watch = awaitsGreetingEnd(row) ? watchVerdict(deps.db, callSid, { pollMs: deps.verdictPollMs }) : null;
        const handoverCall: HandoverCall = { callId, callSid, callerId: row.caller_id };
        const line = new TwilioLine({
          streamSid,
          send,
          ...(watch ? { verdict: watch.verdict } : {}),
          hangUp: (reason) => deps.hangUp({ callId, callSid, reason }),
          transfer: (to) => (deps.transfer ? deps.transfer(handoverCall, to) : Promise.reject(new Error('this line cannot transfer'))),
          consult: (request) => (deps.consult ? deps.consult(handoverCall, request) : unreachable()),
        });
        const s = deps.agent.join(lineBriefOf(row), line, log.child({ callId }));
        session = s;
        sessions.set(callId, s);
        log.info({ callId, streamSid, encoding: msg.encoding }, 'media stream started');
        void s.done.then((reason) => {
          watch?.stop();
          sessions.delete(callId);
          log.info({ callId, streamSid, reason }, 'media stream ended');
          if (ws.readyState === WebSocket.OPEN) ws.close(1000);
        });
        return;
      }
      if (session) deliver(msg, session);
    });
    ws.on('close', () => {
      clearTimeout(startTimer);
      void session?.ended();
    });
    ws.on('error', (err: NodeJS.ErrnoException) => log.warn({ callId, code: err.code ?? null }, 'media stream socket error'));
  }

  server.on('upgrade', onUpgrade);
  return {
    async settled() {
      await Promise.all([...sessions.values()].map((s) => s.done));
    },
    async close() {
      server.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.terminate();
      await Promise.all([...sessions.values()].map((s) => s.ended()));
      deps.agent.close?.();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/** A line whose carrier cannot call a transfer's person: nobody is reached. */
function unreachable(): Consultation {
  return { outcome: Promise.resolve('failed'), stillThere: async () => false, join: () => Promise.reject(new Error('this line cannot transfer')), release: async () => undefined };
}

function refuse(socket: Duplex, status: 404 | 503): void {
  const text = status === 404 ? 'Not Found' : 'Service Unavailable';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
