// The pocketsphinx adapter's contract without pocketsphinx: refusals (a language it has no model for, a missing
// decoder, a missing model) and, against a stand-in decoder (a shell script behaving as pocketsphinx_continuous
// does: its log on stderr, the audio on stdin, each utterance's words then their times on stdout), what it sends,
// what it reports, and how it ends: a close that resolves once the decoder exits, a close that outlasts its grace
// (the decoder ignoring the end of its input) and kills it, a decoder that dies mid-call or fails to start.
import { expect } from 'chai';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { EN } from '../../server/src/conversation/lexicon-en.js';
import { ProviderError } from '../../server/src/speech/provider-error.js';
import type { RecognitionListener, RecognitionStream } from '../../server/src/speech/recognizer.js';
import { PocketsphinxRecognizer, pocketsphinxInstalled } from '../../server/src/speech/pocketsphinx/pocketsphinx-recognizer.js';
import { calleeSentences } from '../../server/src/speech/pocketsphinx/sandbox-language-model.js';

const INSTALL = "install Debian's pocketsphinx and pocketsphinx-en-us packages (apt-get install pocketsphinx pocketsphinx-en-us)";
const READY = 'INFO: continuous.c(307): pocketsphinx_continuous COMPILED ON: Sep 28 2022, AT: 20:56:35';
const logger = pino({ level: 'silent' });
const options = { callId: 'call_sphinx_1', language: 'en-US', logger };

interface Heard {
  finals: { text: string; endOfTurn: boolean; span: { startMs: number; endMs: number } | null }[];
  failures: ProviderError[];
}

function listener(): RecognitionListener & Heard {
  const heard: Heard = { finals: [], failures: [] };
  return {
    ...heard,
    interim: () => {},
    final: (text, endOfTurn, span) => heard.finals.push({ text, endOfTurn, span }),
    failed: (error) => heard.failures.push(error),
  };
}

async function rejection(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a rejection');
}

/** Resolves once `check` holds, polling (the decoder is another process). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('pocketsphinx recogniser', () => {
  let dir: string;
  let modelDir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-sphinx-test-'));
    // A model folder as Debian lays it out, with a dictionary holding every word the sandbox's callee says.
    modelDir = join(dir, 'model');
    mkdirSync(join(modelDir, 'en-us'), { recursive: true });
    writeFileSync(join(modelDir, 'en-us', 'mdef'), 'BMDF');
    writeFileSync(join(modelDir, 'en-us', 'feat.params'), '-lowerf 130\n-upperf 6800\n-cmninit 41.00,-5.29\n-model ptm\n');
    const words = [...new Set(calleeSentences(EN).flatMap((s) => s.words))];
    writeFileSync(join(modelDir, 'cmudict-en-us.dict'), words.map((w) => `${w} AH`).join('\n'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A stand-in decoder: `body` runs after it has logged its start; its pid goes to `pid`, its input to `audio.raw`. */
  function decoder(name: string, body: string, ready = true): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\necho $$ > '${dir}/${name}.pid'\necho 'INFO: pocketsphinx.c(151): Parsed model-specific feature parameters' >&2\n${ready ? `echo '${READY}' >&2\n` : ''}${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  describe('refusals', () => {
    it('refuses a language other than English, naming it', async () => {
      const error = await rejection(new PocketsphinxRecognizer().open({ ...options, language: 'fr-FR' }, listener()));
      expect(error.provider).to.equal('pocketsphinx');
      expect(error.failure).to.equal('refused');
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal("pocketsphinx recognises English only (Debian ships only its en-us model); the call's language is fr-FR");
    });

    it('refuses when the decoder is not installed, naming the Debian packages and no path', async () => {
      const missing = join(dir, 'nowhere', 'pocketsphinx_continuous');
      const error = await rejection(new PocketsphinxRecognizer({ binary: missing, modelDir }).open(options, listener()));
      expect(error.failure).to.equal('refused');
      expect(error.message).to.equal(`pocketsphinx_continuous was not found: ${INSTALL}`);
      expect(error.message).to.not.include(dir);
      expect(await pocketsphinxInstalled({ binary: missing, modelDir })).to.equal(false);
    });

    it('looks the decoder up on PATH by name', async () => {
      mkdirSync(join(dir, 'bin'));
      const binary = decoder(join('bin', 'svc-fake-decoder'), 'cat > /dev/null');
      const byName = new PocketsphinxRecognizer({ binary: 'svc-fake-decoder', modelDir });
      const error = await rejection(byName.open(options, listener()));
      expect(error.message).to.equal(`pocketsphinx_continuous was not found: ${INSTALL}`);
      const path = process.env.PATH;
      process.env.PATH = `${join(dir, 'bin')}:${path}`;
      try {
        const stream = await byName.open(options, listener());
        await stream.close();
      } finally {
        process.env.PATH = path;
      }
      expect(existsSync(`${binary}.pid`)).to.equal(true);
    });

    it('refuses when the English model is not installed', async () => {
      const binary = decoder('no-model', 'cat > /dev/null');
      const error = await rejection(new PocketsphinxRecognizer({ binary, modelDir: join(dir, 'no-model-here') }).open(options, listener()));
      expect(error.failure).to.equal('refused');
      expect(error.message).to.equal(`the US English model of pocketsphinx was not found: ${INSTALL}`);
      expect(await pocketsphinxInstalled({ binary, modelDir: join(dir, 'no-model-here') })).to.equal(false);
      expect(await pocketsphinxInstalled({ binary, modelDir })).to.equal(true);
    });

    it('refuses when the decoder fails to start, with its own error', async () => {
      const binary = decoder('fails', `echo 'ERROR: "acmod.c", line 79: Acoustic model definition is not specified' >&2\nexit 1`, false);
      const error = await rejection(new PocketsphinxRecognizer({ binary, modelDir }).open(options, listener()));
      expect(error.failure).to.equal('refused');
      expect(error.message).to.equal('pocketsphinx_continuous did not start: Acoustic model definition is not specified');
    });
  });

  describe('a stream', () => {
    it('sends 16 kHz PCM, reports each utterance with call times, and resolves close once the decoder exits', async () => {
      const audio = join(dir, 'audio.raw');
      // After its input ends, the decoder prints two utterances as pocketsphinx_continuous -time yes does. The
      // second starts 1.3 s into what it heard: 0.7 s of that is the flush's silence, so 0.6 s of call time.
      const binary = decoder(
        'talks',
        [
          `cat > '${audio}'`,
          "printf 'yes we are\\n<s> 0.000 0.020 0.999\\nyes 0.030 0.140 0.9\\n<sil> 0.150 0.200 1.0\\nwe(2) 0.210 0.300 0.8\\nare 0.310 0.400 0.7\\n</s> 0.410 0.450 1.0\\n'",
          "printf 'goodbye\\n<s> 1.290 1.300 1.0\\ngoodbye 1.300 1.700 0.6\\n</s> 1.710 1.800 1.0\\n'",
          "printf '\\n<s> 2.000 2.100 1.0\\n[NOISE] 2.100 2.200 1.0\\n</s> 2.200 2.300 1.0\\n'",
        ].join('\n'),
      );
      const heard = listener();
      const stream = await new PocketsphinxRecognizer({ binary, modelDir }).open(options, heard);
      stream.send(Buffer.alloc(4000, 0xff)); // 500 ms of line silence
      stream.flush();
      stream.send(Buffer.alloc(8000, 0xff)); // 1 s
      await stream.close();
      expect(heard.finals).to.deep.equal([
        { text: 'yes we are', endOfTurn: true, span: { startMs: 30, endMs: 400 } },
        { text: 'goodbye', endOfTurn: true, span: { startMs: 600, endMs: 1000 } },
      ]);
      expect(heard.failures).to.deep.equal([]);
      // Two 16-bit samples per line byte, and 0.7 s of silence each for the flush and the close.
      expect(statSync(audio).size).to.equal((4000 + 8000) * 4 + 2 * 700 * 16 * 2);
      const pcm = readFileSync(audio);
      let energy = 0;
      for (let i = 0; i < pcm.length; i += 2) energy += pcm.readInt16LE(i) ** 2;
      // Silence on the line arrives as the noise floor, not as digital zeros.
      expect(Math.round(Math.sqrt(energy / (pcm.length / 2)) / 10)).to.equal(15);
    });

    it('resolves close after its grace when the decoder ignores the end of its input, and kills it', async () => {
      const binary = decoder('hangs', "trap '' TERM\nwhile :; do sleep 1; done");
      const heard = listener();
      const stream: RecognitionStream = await new PocketsphinxRecognizer({ binary, modelDir }).open(options, heard);
      stream.send(Buffer.alloc(1600, 0xff));
      await stream.close(200);
      const pid = Number(readFileSync(join(dir, 'hangs.pid'), 'utf8'));
      await until(() => !alive(pid));
      expect(heard.failures).to.deep.equal([]);
      await stream.close(200);
    });

    it('reports a decoder that dies mid-call as dropped, with its error', async () => {
      const binary = decoder('dies', `head -c 6400 > /dev/null\necho 'FATAL: "continuous.c", line 187: Failed to process audio' >&2\nexit 1`);
      const heard = listener();
      const stream = await new PocketsphinxRecognizer({ binary, modelDir }).open(options, heard);
      for (let i = 0; i < 20; i += 1) stream.send(Buffer.alloc(160, 0xff));
      await until(() => heard.failures.length > 0);
      expect(heard.failures).to.have.length(1);
      expect(heard.failures[0]!.failure).to.equal('dropped');
      expect(heard.failures[0]!.retryable).to.equal(true);
      expect(heard.failures[0]!.message).to.equal('pocketsphinx_continuous stopped mid-call: Failed to process audio');
      // Sending after the decoder is gone is quiet, and close still resolves.
      stream.send(Buffer.alloc(160, 0xff));
      stream.flush();
      await stream.close(200);
      expect(heard.failures).to.have.length(1);
    });

    it('writes the model files once per process for every stream', async () => {
      const binary = decoder('args', `for a in "$@"; do echo "$a"; done > '${dir}/args.txt'\ncat > /dev/null`);
      const recognizer = new PocketsphinxRecognizer({ binary, modelDir });
      const first = await recognizer.open(options, listener());
      await first.close();
      const args = readFileSync(join(dir, 'args.txt'), 'utf8').trim().split('\n');
      const second = await new PocketsphinxRecognizer({ binary, modelDir }).open(options, listener());
      await second.close();
      expect(readFileSync(join(dir, 'args.txt'), 'utf8').trim().split('\n')).to.deep.equal(args);
      const flag = (name: string) => args[args.indexOf(name) + 1]!;
      expect(flag('-infile')).to.equal('/dev/stdin');
      expect(flag('-hmm')).to.equal(join(modelDir, 'en-us'));
      expect(flag('-samprate')).to.equal('16000');
      expect(readFileSync(flag('-featparams'), 'utf8')).to.equal('-lowerf 130\n-upperf 6800\n-model ptm\n-cmninit 63.8,-10.9,0.2,6.3,0.0,-2.6,-2.5,-5.9,-10.1,-2.1,-4.9,1.9,-2.7\n');
      expect(readFileSync(flag('-lm'), 'utf8')).to.match(/^\\data\\\nngram 1=\d+\nngram 2=\d+\nngram 3=\d+\n/);
      expect(readFileSync(flag('-dict'), 'utf8')).to.include('\ngoodbye AH\n');
      expect(existsSync(flag('-lm'))).to.equal(true);
    });
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
