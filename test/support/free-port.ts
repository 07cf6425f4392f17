// A TCP port free on 127.0.0.1 right now, for a child process to listen on (the OS picks it; the listener closes
// before the port is handed out, so a process started at once gets it).
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
