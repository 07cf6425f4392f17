// One system call per socket per event. A WebSocket message is one write to its socket, and on a live call the
// kernel's share of those writes is most of the bridge's CPU. The messages one event gives a socket (the agent's
// audio and the mark after it; the frames of a read that held several) are kept back while the event is handled
// and leave as one write when it is done (process.nextTick: before the next event, so nothing waits on another
// call's work).
import type { Writable } from 'node:stream';

/** Returns what to call before each message on `socket`: the first of an event corks it until the event is done. */
export function turnWrites(socket: Pick<Writable, 'cork' | 'uncork'>): () => void {
  let corked = false;
  const flush = () => {
    corked = false;
    socket.uncork();
  };
  return () => {
    if (corked) return;
    corked = true;
    socket.cork();
    process.nextTick(flush);
  };
}
