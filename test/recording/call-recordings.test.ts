// A call's recording as a file: a carrier's, where its download stored it; a sandbox call's, rendered from what the
// call kept the first time it is asked for, then kept, and rendered once however many ask at the same time.
import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallRecordings } from '../../server/src/recording/call-recordings.js';
import { recordingRequestJson, type Recorder, type RecordingRequest } from '../../server/src/recording/recorder.js';

const REQUEST: RecordingRequest = {
  turns: [
    { speaker: 'agent', text: 'Is the shop open on Sunday?', startMs: 0, endMs: 1600 },
    { speaker: 'callee', text: 'Yes.', startMs: 2200, endMs: 3000 },
  ],
  totalMs: 3400,
  language: 'en-GB',
  tones: [{ startMs: 3000, endMs: 3200, hz: 1000 }],
};

/** A recorder that answers a WAV-like buffer naming what it was asked, counting renders; `fail` makes the next throw. */
function countingRecorder() {
  const made = { renders: 0, asked: [] as RecordingRequest[], fail: false, gate: Promise.resolve() };
  const recorder: Recorder = {
    async render(request) {
      made.renders++;
      made.asked.push(request);
      await made.gate;
      if (made.fail) {
        made.fail = false;
        throw new Error('the renderer failed');
      }
      return Buffer.from(`RIFF ${request.totalMs} ${request.language}`);
    },
  };
  return { recorder, made };
}

describe('CallRecordings', () => {
  let root: string;
  let dirs: { dataDir: string; recordingsDir: string };
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-call-recordings-'));
    dirs = { dataDir: root, recordingsDir: join(root, 'recordings') };
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const sandboxCall = (id = 'call-1') => ({ id, recording_path: null, recording_request_json: recordingRequestJson(REQUEST) });

  it('renders a call kept for rendering at the first ask, from exactly what it kept, and keeps the file', async () => {
    const { recorder, made } = countingRecorder();
    const recordings = new CallRecordings(recorder, dirs);
    const file = await recordings.fileOf(sandboxCall());
    expect(file).to.deep.equal({ path: join(root, 'recordings', 'call-1.wav'), size: 'RIFF 3400 en-GB'.length });
    expect(made.asked).to.deep.equal([REQUEST]);
    expect((await readFile(file!.path)).toString()).to.equal('RIFF 3400 en-GB');
    expect(await recordings.fileOf(sandboxCall())).to.deep.equal(file);
    expect(made.renders, 'the kept file is served again').to.equal(1);
  });

  it('renders once for requests that arrive while it renders', async () => {
    const { recorder, made } = countingRecorder();
    let letGo!: () => void;
    made.gate = new Promise((resolve) => (letGo = resolve));
    const recordings = new CallRecordings(recorder, dirs);
    const asks = [recordings.fileOf(sandboxCall()), recordings.fileOf(sandboxCall()), recordings.fileOf(sandboxCall())];
    await new Promise((r) => setTimeout(r, 20));
    letGo();
    const files = await Promise.all(asks);
    expect(made.renders).to.equal(1);
    expect(new Set(files.map((f) => f!.path)).size).to.equal(1);
  });

  it('fails the ask whose render failed, keeps nothing half-made, and renders at the next ask', async () => {
    const { recorder, made } = countingRecorder();
    made.fail = true;
    const recordings = new CallRecordings(recorder, dirs);
    let failure: unknown;
    await recordings.fileOf(sandboxCall()).catch((e: unknown) => (failure = e));
    expect((failure as Error).message).to.equal('the renderer failed');
    expect(await readdir(root)).to.deep.equal([]);
    expect((await recordings.fileOf(sandboxCall()))!.size).to.equal('RIFF 3400 en-GB'.length);
    expect(made.renders).to.equal(2);
  });

  it('fails the ask when the file cannot be written (a full disk, a folder it may not write), and writes no partial file', async () => {
    const { recorder } = countingRecorder();
    await writeFile(join(root, 'not-a-folder'), 'x');
    const recordings = new CallRecordings(recorder, { dataDir: root, recordingsDir: join(root, 'not-a-folder', 'recordings') });
    let failure: unknown;
    await recordings.fileOf(sandboxCall()).catch((e: unknown) => (failure = e));
    expect((failure as NodeJS.ErrnoException).code).to.equal('ENOTDIR');
    expect(await readdir(root)).to.deep.equal(['not-a-folder']);
  });

  it('renders again where the kept file is missing (another host, a folder cleared)', async () => {
    const { recorder, made } = countingRecorder();
    const recordings = new CallRecordings(recorder, dirs);
    const file = await recordings.fileOf(sandboxCall());
    await rm(file!.path);
    expect(await recordings.fileOf(sandboxCall())).to.deep.equal(file);
    expect(made.renders).to.equal(2);
  });

  it("serves a carrier's recording from where its download stored it, rendering nothing, and null when the file is gone", async () => {
    const { recorder, made } = countingRecorder();
    const recordings = new CallRecordings(recorder, dirs);
    await writeFile(join(root, 'RE1.wav'), 'RIFF from the carrier');
    expect(await recordings.fileOf({ id: 'call-2', recording_path: 'RE1.wav', recording_request_json: null })).to.deep.equal({ path: join(root, 'RE1.wav'), size: 21 });
    expect(await recordings.fileOf({ id: 'call-3', recording_path: 'gone.wav', recording_request_json: null })).to.equal(null);
    expect(made.renders).to.equal(0);
  });

  it('answers null for a call with no recording: never answered, or still live', async () => {
    const { recorder, made } = countingRecorder();
    expect(await new CallRecordings(recorder, dirs).fileOf({ id: 'call-4', recording_path: null, recording_request_json: null })).to.equal(null);
    expect(made.renders).to.equal(0);
  });

  it('keeps in the request only what the recording is made of, and no tones when there are none', () => {
    const extra = { ...REQUEST.turns[0]!, confidence: 0.9 } as RecordingRequest['turns'][number];
    expect(JSON.parse(recordingRequestJson({ ...REQUEST, turns: [extra] })).turns).to.deep.equal([REQUEST.turns[0]]);
    expect(JSON.parse(recordingRequestJson({ ...REQUEST, tones: [] }))).to.not.have.property('tones');
  });
});
