// What the media benches share: svc as a service process on the Twilio carrier against the fake Twilio (its calls
// placed ten at a time, dialled through the fake REST API, answered by signed status and answering-machine
// callbacks, their streams' URLs and tokens read from the TwiML), and a relay script as a process of its own, the
// baseline measured beside it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { FakeTwilio } from '../../test/support/fake-twilio.js';
import { freePort } from '../../test/support/free-port.js';
import { placementBodies } from './seed.js';
import { api, seed, startService } from './service.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An answered call's stream: where Twilio would connect it, with what. */
export interface AnsweredCall {
  url: string;
  callSid: string;
  token: string;
  callId: string;
}

export interface TwilioService {
  pid: number;
  /** The service's address and a key of the seeded account. */
  url: string;
  apiKey: string;
  /** Places `n` more calls and answers each once dialled; their streams are the caller's to open. */
  placeAndAnswer(n: number): Promise<AnsweredCall[]>;
  stop(): Promise<void>;
}

/**
 * svc on SQLite with the Twilio carrier, for up to `total` calls; `env` names the agent and where its providers
 * are (SVC_REALTIME_URL for the realtime agent, the default; SVC_AGENT=cascaded and its providers' settings).
 */
export async function startTwilioService(total: number, env: Record<string, string>): Promise<TwilioService> {
  const twilio = await FakeTwilio.start();
  const seeded = await seed('sqlite');
  const port = await freePort();
  const service = await startService(
    {
      ...twilio.env(),
      ...seeded.env,
      SVC_PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      // Production refuses a plain-http public address for Twilio; nothing else differs for these benches.
      NODE_ENV: 'development',
      SVC_MAX_CALL_DURATION_SEC: '3000',
      ...env,
    },
    port,
  );
  const bodies = placementBodies(total);
  let placed = 0;
  let answered = 0;
  return {
    pid: service.proc.pid!,
    url: service.url,
    apiKey: seeded.apiKey,
    async placeAndAnswer(n) {
      const from = placed;
      placed += n;
      for (let i = from; i < placed; i += 10) {
        await Promise.all(
          bodies.slice(i, Math.min(i + 10, placed)).map(async (body) => {
            const r = await api(service.url, seeded.apiKey, '/v1/agent/calls', JSON.parse(body));
            if (r.status !== 202) throw new Error(`placeCall answered ${r.status}: ${JSON.stringify(r.json)}`);
          }),
        );
      }
      const dialBy = Date.now() + 60_000;
      while (twilio.calls.length < placed && Date.now() < dialBy) await sleep(20);
      if (twilio.calls.length < placed) throw new Error(`${twilio.calls.length} of ${placed} calls dialled`);
      const out: AnsweredCall[] = [];
      for (; answered < placed; answered++) {
        const call = twilio.calls[answered]!;
        const twiml = call.params.Twiml![0]!;
        const url = /<Stream url="([^"]+)">/.exec(twiml)![1]!;
        const token = /<Parameter name="token" value="([^"]+)"\/>/.exec(twiml)![1]!;
        const status = await twilio.status(call.sid, 'in-progress');
        const amd = await twilio.amd(call.sid, 'human');
        if (status.status !== 204 || amd.status !== 204) throw new Error(`callbacks answered ${status.status}, ${amd.status}`);
        out.push({ url, callSid: call.sid, token, callId: decodeURIComponent(new URL(url).pathname.split('/').pop()!) });
      }
      return out;
    },
    async stop() {
      await service.stop();
      await twilio.close();
      await seeded.drop();
    },
  };
}

/** A relay script (bench/support/*-relay.ts) as its own process, told where its providers are by `env`, ready once it prints its port. */
export async function startRelay(script: string, env: Record<string, string>): Promise<{ pid: number; port: number; stop(): Promise<void> }> {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).on('line', (l) => /^ready (\d+)$/.test(l) && resolve(Number(/\d+/.exec(l)![0])));
    proc.once('exit', (code) => reject(new Error(`relay exited with ${code}`)));
  });
  return { pid: proc.pid!, port, stop: () => new Promise((resolve) => (proc.once('exit', () => resolve()), proc.kill('SIGKILL'))) };
}
