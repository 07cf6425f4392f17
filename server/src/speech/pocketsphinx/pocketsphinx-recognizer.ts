// The offline speech-to-text adapter (SVC_STT=pocketsphinx): Debian's pocketsphinx_continuous (packages pocketsphinx
// and pocketsphinx-en-us), one process per call, fed the callee's audio on its standard input; it prints each
// utterance's words, and with -time their times, when its voice activity detection hears the utterance end.
//
// How it is fed, and why:
// - The CLI is spawned: Debian's pocketsphinx has a C library and Python bindings but nothing Node can call.
// - Through `cat`: the CLI reads `-infile` with fopen, and Node's child stdin is a socket, which /dev/stdin cannot
//   open; cat (in bash's process substitution) turns it into a pipe. The decoder and cat share a process group,
//   killed as one when a close outlasts its grace.
// - At 16 kHz, upsampled from the line's 8 kHz, with a faint noise floor added: the only English model Debian ships
//   is a 16 kHz one (filters up to 6.8 kHz). Decoding 8 kHz audio with it (-samprate 8000 -nfft 256 and a lower
//   -upperf) changes its features and recognises almost nothing; upsampled audio leaves its top filters empty,
//   which the noise floor fills the way a microphone's hiss does, and roughly halves the word errors.
// - -cmninit is the cepstral mean of such audio (read from the decoder's own live updates): the model's own is
//   that of full-band speech, and each call's first utterance would be decoded with it.
// - -topn 8 scores more Gaussians per frame than the default 4, which the mismatched band needs; -remove_noise no,
//   because its spectral subtraction would take out the noise floor.
// - A trigram model (sandbox-language-model.ts) and a dictionary cut down to its words, both built from the
//   sandbox's English lexicon and written to a temporary folder once per process. English only: Debian ships no
//   other pocketsphinx model.
//
// The CLI reports no partial hypotheses and no start of speech, so this adapter sends only `final` events, each
// with endOfTurn true. `flush` feeds the decoder enough silence to end the utterance in progress; the silence is
// left out of the times reported.
import { type ChildProcess, spawn } from 'node:child_process';
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { EN } from '../../conversation/lexicon-en.js';
import { LINE_BYTES_PER_MS, decodeMuLaw } from '../audio.js';
import { ProviderError } from '../provider-error.js';
import type { RecognitionListener, RecognitionOptions, RecognitionStream, SpeechRecognizer } from '../recognizer.js';
import { calleeSentences, ngramArpa, restrictDictionary } from './sandbox-language-model.js';

const PROVIDER = 'pocketsphinx';
export const POCKETSPHINX_BINARY = 'pocketsphinx_continuous';
/** Where Debian's pocketsphinx-en-us puts the US English model and the CMU dictionary. */
export const DEBIAN_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const INSTALL_HINT = "install Debian's pocketsphinx and pocketsphinx-en-us packages (apt-get install pocketsphinx pocketsphinx-en-us)";

const DECODER_RATE = 16_000;
/** Standard deviation of the noise floor, in 16-bit sample units (about -47 dBFS). */
const NOISE_FLOOR = 150;
/** The cepstral mean of line audio upsampled with the noise floor (13 coefficients, as the model's feat.params has). */
const LINE_CMN_INIT = '63.8,-10.9,0.2,6.3,0.0,-2.6,-2.5,-5.9,-10.1,-2.1,-4.9,1.9,-2.7';
/**
 * Silence that ends an utterance: the decoder's VAD needs 0.5 s of it (-vad_postspeech 50), and reads its input
 * 2048 samples (128 ms) at a time.
 */
const FLUSH_SILENCE_MS = 700;
/** The decoder prints this once its model is loaded and it starts reading audio. */
const READY_MARK = ' COMPILED ON: ';
/** How long a decoder may take to load its model before open() gives up. */
const READY_TIMEOUT_MS = 15_000;
/** A word and its times: `word start end confidence`, times in seconds. */
const SEGMENT = /^(\S+) (\d+\.\d+) (\d+\.\d+) \S+$/;
/** Words the decoder reports for silence and noise, and sentence marks, none of them words said. */
const NOT_SPOKEN = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\])$/;

export interface PocketsphinxOptions {
  /** The decoder: a name looked up on PATH, or a path. `pocketsphinx_continuous` by default. */
  binary?: string;
  /** The folder holding `en-us/` (the acoustic model) and `cmudict-en-us.dict`. Debian's by default. */
  modelDir?: string;
}

interface Prepared {
  binary: string;
  args: string[];
}

export class PocketsphinxRecognizer implements SpeechRecognizer {
  readonly name = 'pocketsphinx';
  private readonly binary: string;
  private readonly modelDir: string;

  constructor(options: PocketsphinxOptions = {}) {
    this.binary = options.binary ?? POCKETSPHINX_BINARY;
    this.modelDir = options.modelDir ?? DEBIAN_MODEL_DIR;
  }

  async open(options: RecognitionOptions, listener: RecognitionListener): Promise<RecognitionStream> {
    const base = options.language.split('-')[0]!.toLowerCase();
    if (base !== 'en') {
      throw new ProviderError(PROVIDER, 'refused', `pocketsphinx recognises English only (Debian ships only its en-us model); the call's language is ${options.language}`);
    }
    return DecoderStream.start(await prepared(this.binary, this.modelDir), options, listener);
  }
}

/** By binary and model folder: what every stream of the process shares. A failure is forgotten, so an install is seen. */
const preparations = new Map<string, Promise<Prepared>>();

function prepared(binary: string, modelDir: string): Promise<Prepared> {
  const key = `${binary}\0${modelDir}`;
  let p = preparations.get(key);
  if (!p) {
    p = prepare(binary, modelDir);
    p.catch(() => preparations.delete(key));
    preparations.set(key, p);
  }
  return p;
}

/** Finds the decoder and the model, and writes the language model, dictionary and feature parameters to a temporary folder. */
async function prepare(binary: string, modelDir: string): Promise<Prepared> {
  const found = await findExecutable(binary);
  if (!found) throw new ProviderError(PROVIDER, 'refused', `${POCKETSPHINX_BINARY} was not found: ${INSTALL_HINT}`);
  const hmm = join(modelDir, 'en-us');
  let dictionary: string;
  let featParams: string;
  try {
    await access(join(hmm, 'mdef'), fsConstants.R_OK);
    dictionary = await readFile(join(modelDir, 'cmudict-en-us.dict'), 'utf8');
    featParams = await readFile(join(hmm, 'feat.params'), 'utf8');
  } catch {
    throw new ProviderError(PROVIDER, 'refused', `the US English model of pocketsphinx was not found: ${INSTALL_HINT}`);
  }
  const sentences = calleeSentences(EN);
  const wanted = new Set(sentences.flatMap((s) => s.words));
  const { text: dict, missing } = restrictDictionary(dictionary, wanted, EXTRA_PRONUNCIATIONS);
  // A word the dictionary cannot say would make the decoder drop the n-grams holding it; leave it out knowingly.
  const known = missing.length === 0 ? sentences : sentences.filter((s) => s.words.every((w) => !missing.includes(w)));
  if (known.length === 0) throw new ProviderError(PROVIDER, 'refused', `the pronouncing dictionary of pocketsphinx has none of the sandbox's words: ${INSTALL_HINT}`);
  const dir = await mkdtemp(join(tmpdir(), 'svc-pocketsphinx-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const files = { lm: join(dir, 'callee.arpa'), dict: join(dir, 'callee.dict'), feat: join(dir, 'feat.params') };
  await writeFile(files.lm, ngramArpa(known));
  await writeFile(files.dict, dict);
  await writeFile(files.feat, withCmnInit(featParams, LINE_CMN_INIT));
  return {
    binary: found,
    args: [
      ...['-infile', '/dev/stdin', '-time', 'yes'],
      ...['-hmm', hmm, '-featparams', files.feat, '-lm', files.lm, '-dict', files.dict],
      ...['-samprate', String(DECODER_RATE), '-remove_noise', 'no', '-topn', '8'],
    ],
  };
}

/** Pronunciations the CMU dictionary lacks, in its phone set. */
const EXTRA_PRONUNCIATIONS: Readonly<Record<string, string>> = { priya: 'P R IY Y AH' };

/** feat.params with its -cmninit replaced (the model's file wins over the command line, so it is rewritten). */
function withCmnInit(featParams: string, cmnInit: string): string {
  const lines = featParams.split('\n').filter((l) => !l.startsWith('-cmninit '));
  return `${lines.filter(Boolean).join('\n')}\n-cmninit ${cmnInit}\n`;
}

/** Whether the decoder and the English model are installed (for a caller choosing a recogniser, and for tests). */
export async function pocketsphinxInstalled(options: PocketsphinxOptions = {}): Promise<boolean> {
  const modelDir = options.modelDir ?? DEBIAN_MODEL_DIR;
  if (!(await findExecutable(options.binary ?? POCKETSPHINX_BINARY))) return false;
  try {
    await access(join(modelDir, 'en-us', 'mdef'), fsConstants.R_OK);
    await access(join(modelDir, 'cmudict-en-us.dict'), fsConstants.R_OK);
    return true;
  } catch {
    return false;
  }
}

async function findExecutable(binary: string): Promise<string | null> {
  const candidates =
    isAbsolute(binary) || binary.includes('/')
      ? [binary]
      : (process.env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, binary));
  for (const path of candidates) {
    try {
      await access(path, fsConstants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

/** One call's decoder process. */
class DecoderStream implements RecognitionStream {
  private readonly child: ChildProcess;
  private readonly errors: string[] = [];
  private stdoutRest = '';
  private stderrRest = '';
  private pending: { text: string; startS: number | null; endS: number | null } | null = null;
  /** Decoder ms sent so far (line audio and flush silence). */
  private decoderMs = 0;
  /** Flush silences, in decoder ms: where each starts and how long it lasts. */
  private readonly inserted: { atMs: number; ms: number }[] = [];
  /** The last line sample sent, for interpolating across chunks. */
  private previous = 0;
  private noiseState: number;
  private closing: Promise<void> | null = null;
  private exited = false;
  private ready: ((error: ProviderError | null) => void) | null = null;

  private constructor(
    prepared: Prepared,
    private readonly options: RecognitionOptions,
    private readonly listener: RecognitionListener,
  ) {
    // A fixed seed: the same audio always gives the same transcript.
    this.noiseState = 0x9e3779b9;
    // `cat` turns Node's socket into the pipe fopen needs. The decoder replaces the shell, so its exit is the
    // child's; cat holds neither stdout nor stderr, so it cannot keep the child open once the decoder is gone.
    this.child = spawn('bash', ['-c', 'exec "$0" "$@" < <(exec cat 2>/dev/null)', prepared.binary, ...prepared.args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stdin!.on('error', () => {
      // The decoder went away; its exit says why.
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.onStdout(chunk));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => this.onStderr(chunk));
    this.child.on('error', (e) => this.onExit(null, null, e.message));
    this.child.on('close', (code, signal) => this.onExit(code, signal, null));
  }

  static start(prepared: Prepared, options: RecognitionOptions, listener: RecognitionListener): Promise<DecoderStream> {
    const stream = new DecoderStream(prepared, options, listener);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // The caller never gets this stream, so its end is no failure to report.
        stream.closing = Promise.resolve();
        stream.kill();
        settle(new ProviderError(PROVIDER, 'stalled', `${POCKETSPHINX_BINARY} did not load its model within ${READY_TIMEOUT_MS} ms`));
      }, READY_TIMEOUT_MS);
      const settle = (error: ProviderError | null) => {
        clearTimeout(timer);
        stream.ready = null;
        if (error) reject(error);
        else resolve(stream);
      };
      stream.ready = settle;
    });
  }

  send(audio: Buffer): void {
    if (this.closing || this.exited || audio.length === 0) return;
    const line = decodeMuLaw(audio);
    const out = new Int16Array(line.length * 2);
    // Linear interpolation to twice the rate, half a line sample late, so chunks join without a seam.
    for (let i = 0; i < line.length; i += 1) {
      const sample = line[i]!;
      out[2 * i] = this.withNoise((this.previous + sample) / 2);
      out[2 * i + 1] = this.withNoise(sample);
      this.previous = sample;
    }
    this.decoderMs += audio.length / LINE_BYTES_PER_MS;
    this.write(out);
  }

  flush(): void {
    if (this.closing || this.exited) return;
    this.inserted.push({ atMs: this.decoderMs, ms: FLUSH_SILENCE_MS });
    this.decoderMs += FLUSH_SILENCE_MS;
    this.write(this.silence(FLUSH_SILENCE_MS));
  }

  close(graceMs = 5000): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      if (this.exited) return resolve();
      const timer = setTimeout(() => {
        this.kill();
        resolve();
      }, graceMs);
      this.child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      // Trailing silence lets the decoder end the last utterance as it ends any other.
      this.write(this.silence(FLUSH_SILENCE_MS));
      this.child.stdin!.end();
    });
    return this.closing;
  }

  private silence(ms: number): Int16Array {
    const out = new Int16Array((ms * DECODER_RATE) / 1000);
    for (let i = 0; i < out.length; i += 1) out[i] = this.withNoise(0);
    return out;
  }

  /** A sample with the noise floor added: approximately Gaussian (the sum of four uniform draws). */
  private withNoise(sample: number): number {
    let sum = 0;
    for (let k = 0; k < 4; k += 1) {
      this.noiseState = (Math.imul(this.noiseState, 1664525) + 1013904223) >>> 0;
      sum += this.noiseState / 4294967296;
    }
    const noisy = Math.round(sample + (sum - 2) * Math.sqrt(3) * NOISE_FLOOR);
    return Math.max(-32768, Math.min(32767, noisy));
  }

  private write(samples: Int16Array): void {
    if (!this.child.stdin!.writable) return;
    this.child.stdin!.write(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  }

  private onStdout(chunk: string): void {
    const lines = (this.stdoutRest + chunk).split('\n');
    this.stdoutRest = lines.pop()!;
    for (const line of lines) {
      const segment = SEGMENT.exec(line);
      if (!segment) {
        this.emitPending();
        this.pending = { text: line.trim(), startS: null, endS: null };
        continue;
      }
      // Times of words that are not a pending utterance's (never seen: the decoder prints an utterance at once).
      if (!this.pending || NOT_SPOKEN.test(segment[1]!)) continue;
      this.pending.startS ??= Number(segment[2]);
      this.pending.endS = Number(segment[3]);
    }
    // The decoder writes an utterance's words and times in one flush, so the end of a chunk ends the utterance.
    this.emitPending();
  }

  private emitPending(): void {
    const utterance = this.pending;
    this.pending = null;
    if (!utterance?.text) return;
    const span = utterance.startS === null || utterance.endS === null ? null : { startMs: this.callMs(utterance.startS * 1000), endMs: this.callMs(utterance.endS * 1000) };
    this.listener.final(utterance.text, true, span);
  }

  /** Decoder time to call time: the flush silences before it taken out. */
  private callMs(decoderMs: number): number {
    let ms = decoderMs;
    for (const { atMs, ms: length } of this.inserted) {
      if (atMs >= decoderMs) break;
      ms -= Math.min(length, decoderMs - atMs);
    }
    return Math.round(ms);
  }

  private onStderr(chunk: string): void {
    const lines = (this.stderrRest + chunk).split('\n');
    this.stderrRest = lines.pop()!;
    for (const line of lines) {
      if (this.ready && line.includes(READY_MARK)) this.ready(null);
      if (/^(ERROR|FATAL)/.test(line)) this.errors.push(line.replace(/^(ERROR|FATAL(_ERROR)?): "[^"]*", line \d+: /, '').trim());
    }
    if (this.errors.length > 5) this.errors.splice(0, this.errors.length - 5);
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null, spawnError: string | null): void {
    if (this.exited) return;
    this.exited = true;
    // cat ends with its input.
    this.child.stdin!.destroy();
    if (this.stdoutRest) this.onStdout('\n');
    const why = spawnError ?? (this.errors.at(-1) || (signal ? `killed by ${signal}` : `exit code ${code}`));
    if (this.ready) {
      this.ready(new ProviderError(PROVIDER, 'refused', `${POCKETSPHINX_BINARY} did not start: ${why}`));
      return;
    }
    if (this.closing) return;
    this.options.logger.warn({ callId: this.options.callId, code, signal }, 'pocketsphinx exited mid-call');
    this.listener.failed(new ProviderError(PROVIDER, 'dropped', `${POCKETSPHINX_BINARY} stopped mid-call: ${why}`));
  }

  private kill(): void {
    if (this.exited || this.child.pid === undefined) return;
    try {
      // The decoder and cat share the process group the detached spawn made.
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
