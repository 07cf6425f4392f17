// Offline speech with espeak-ng compiled to WebAssembly. The package is the espeak-ng command line, whose main()
// keeps its state (getopt's position, the loaded voice) in C globals, so it cannot simply be called twice. We
// instantiate the module once, keep a copy of its pristine memory, and before every utterance put that copy
// back and call main() again: each utterance starts from the same state as a fresh process, for the price of
// one 32 MB memory copy instead of a new instance.
import ESpeakNg, { type EspeakFs, type EspeakModule } from 'espeak-ng';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { decodePcm16Wav } from './encode-wav.js';

/** espeak-ng's native output rate. */
export const ESPEAK_SAMPLE_RATE = 22050;
const DATA_DIR = '/usr/local/share/espeak-ng-data';
const IN_FILE = '/utterance.txt';
const OUT_FILE = '/utterance.wav';

export interface SpeechVoice {
  /** An espeak-ng language voice, e.g. `en-us`, `he`, `pt-br`. */
  language: string;
  /** A voice variant from espeak-ng's `voices/!v` folder (`m3`, `f2`, …), or null for the language's own. */
  variant: string | null;
  /** 0–99; espeak's default is 50. */
  pitch: number;
  /** Words per minute; espeak's default is 175. */
  wordsPerMinute: number;
}

export class SynthesisError extends Error {}

/** What the recorder needs of a synthesiser. */
export interface Synthesizer {
  /** Every language voice it has, by lower-cased name (`en-us`, `he`, `pt-br`). */
  readonly languages: ReadonlyMap<string, string>;
  /** 16-bit mono samples at ESPEAK_SAMPLE_RATE; the same text and voice always give the same samples. */
  synthesize(text: string, voice: SpeechVoice): Int16Array;
}

interface WasmExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  stackSave(): number;
  stackRestore(sp: number): void;
  __main_argc_argv(argc: number, argv: number): number;
}

export class EspeakSynthesizer implements Synthesizer {
  private readonly pristine: Uint8Array;
  private readonly stackPointer: number;
  private readonly stderr: string[] = [];
  /** Language name → its voice file, relative to the data folder's `lang`. */
  readonly languages: ReadonlyMap<string, string>;

  private constructor(
    private readonly module: EspeakModule,
    private readonly wasm: WasmExports,
    stderrSink: (sink: (line: string) => void) => void,
  ) {
    stderrSink((line) => this.stderr.push(line));
    this.pristine = new Uint8Array(wasm.memory.buffer).slice();
    this.stackPointer = wasm.stackSave();
    this.languages = indexLanguages(module.FS);
  }

  /** Compiles and instantiates the WebAssembly module once; main() is not run until the first utterance. */
  static async load(): Promise<EspeakSynthesizer> {
    const jsPath = createRequire(import.meta.url).resolve('espeak-ng');
    const compiled = await WebAssembly.compile(await readFile(join(dirname(jsPath), 'espeak-ng.wasm')));
    let exports: WasmExports | undefined;
    let sink: (line: string) => void = () => {};
    // Emscripten never settles its promise when an instantiateWasm callback fails later; this one does.
    let instantiationFailed: (e: unknown) => void = () => {};
    const failure = new Promise<never>((_, reject) => (instantiationFailed = reject));
    const loading = ESpeakNg({
      noInitialRun: true,
      print: () => {},
      printErr: (line) => sink(line),
      instantiateWasm(imports, done) {
        // espeak-ng seeds the noise of breathy voices with time(); a fixed clock makes a transcript always
        // render to the same audio.
        const pinned = { ...imports, env: { ...imports.env, emscripten_date_now: () => 0 } };
        WebAssembly.instantiate(compiled, pinned).then((instance) => {
          exports = instance.exports as unknown as WasmExports;
          done(instance, compiled);
        }, instantiationFailed);
        return {};
      },
    });
    const module = await Promise.race([loading, failure]);
    if (!exports) throw new SynthesisError('espeak-ng did not expose its WebAssembly instance');
    return new EspeakSynthesizer(module, exports, (s) => (sink = s));
  }

  /** Speaks `text` with `voice`: 16-bit mono samples at ESPEAK_SAMPLE_RATE. Synchronous: one utterance at a time. */
  synthesize(text: string, voice: SpeechVoice): Int16Array {
    const fs = this.module.FS;
    // Text goes through a file, so a turn starting with `-` is never read as an option.
    fs.writeFile(IN_FILE, text);
    const name = voice.variant ? `${voice.language}+${voice.variant}` : voice.language;
    const file = this.languages.get(voice.language.toLowerCase()) ?? voice.language;
    const status = this.runMain([
      ...['-b', '1'], // UTF-8 input
      ...['-v', voice.variant ? `${file}+${voice.variant}` : file],
      ...['-p', String(voice.pitch), '-s', String(voice.wordsPerMinute)],
      ...['-w', OUT_FILE, '-f', IN_FILE],
    ]);
    const failed = (why: string) => new SynthesisError(`espeak-ng failed (${why}) for voice ${name}: ${this.stderr.join(' ').trim()}`);
    if (status !== 0) throw failed(`exit ${status}`);
    let wav: Uint8Array;
    try {
      wav = fs.readFile(OUT_FILE);
      fs.unlink(OUT_FILE);
    } catch {
      throw failed('no output');
    }
    const { sampleRate, samples } = decodePcm16Wav(wav);
    if (sampleRate !== ESPEAK_SAMPLE_RATE) throw new SynthesisError(`espeak-ng wrote ${sampleRate} Hz, expected ${ESPEAK_SAMPLE_RATE}`);
    return samples;
  }

  private runMain(args: string[]): number {
    this.stderr.length = 0;
    new Uint8Array(this.wasm.memory.buffer).set(this.pristine);
    this.wasm.stackRestore(this.stackPointer);
    const argv = ['espeak-ng', ...args];
    const encoder = new TextEncoder();
    const pointers = argv.map((arg) => {
      const bytes = encoder.encode(`${arg}\0`);
      const at = this.wasm.malloc(bytes.length);
      new Uint8Array(this.wasm.memory.buffer).set(bytes, at);
      return at;
    });
    const table = this.wasm.malloc(4 * (pointers.length + 1));
    const view = new Uint32Array(this.wasm.memory.buffer, table, pointers.length + 1);
    view.set(pointers);
    view[pointers.length] = 0;
    // Nothing to free: the next utterance restores the pristine heap.
    try {
      return this.wasm.__main_argc_argv(argv.length, table);
    } catch (e) {
      // exit(n) inside main() surfaces as Emscripten's ExitStatus.
      const status = (e as { status?: unknown }).status;
      if (typeof status === 'number') return status;
      throw e;
    }
  }
}

/**
 * Language name → the path `-v` takes, relative to the data folder's `lang`. espeak-ng lower-cases `-v` and,
 * when no file has that exact path, reads every voice file to find the name (most of an utterance's time), so
 * files with capitals (`gmw/en-US`) get a lower-case copy beside them that it opens directly.
 */
function indexLanguages(fs: EspeakFs): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdir(`${DATA_DIR}/lang/${dir}`)) {
      if (entry === '.' || entry === '..') continue;
      const path = dir ? `${dir}/${entry}` : entry;
      if (fs.isDir(fs.stat(`${DATA_DIR}/lang/${path}`).mode)) walk(path);
      else if (!found.has(entry.toLowerCase())) found.set(entry.toLowerCase(), path);
    }
  };
  walk('');
  for (const [name, path] of found) {
    const lower = path.toLowerCase();
    if (lower !== path) fs.writeFile(`${DATA_DIR}/lang/${lower}`, fs.readFile(`${DATA_DIR}/lang/${path}`));
    found.set(name, lower);
  }
  return found;
}

let shared: Promise<EspeakSynthesizer> | undefined;

/** The process's one synthesiser, loaded on first use (about 18 MB of WebAssembly and 64 MB of memory). */
export function sharedSynthesizer(): Promise<EspeakSynthesizer> {
  shared ??= EspeakSynthesizer.load().catch((e: unknown) => {
    shared = undefined;
    throw e;
  });
  return shared;
}
