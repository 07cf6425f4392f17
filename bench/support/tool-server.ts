// The client's tool server of bench/tool-latency.ts, as a process of its own (a client's server is not svc's, nor
// the model's): test/support/fake-tool-server.ts over https with the certificate it is sent over IPC, answering
// every request at once with the same small JSON.
import { FakeToolServer } from '../../test/support/fake-tool-server.js';

process.once('message', async (m: { key: string; cert: string; answer: unknown }) => {
  const server = await FakeToolServer.start({ key: m.key, cert: m.cert });
  server.defaultReply = { body: m.answer };
  process.send!({ type: 'listening', url: server.url });
  process.once('message', async () => {
    await server.close();
    process.exit(0);
  });
});
process.send!({ type: 'up' });
