// Where recordings are written, and the path the call row keeps for the recording route to resolve.
import { expect } from 'chai';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../server/src/config.js';
import { storedRecordingPath, writeRecording } from '../../server/src/recording/write-recording.js';

describe('writeRecording', function () {
  let root: string;
  beforeEach(async function () {
    root = await mkdtemp(join(tmpdir(), 'svc-recordings-'));
  });
  afterEach(async function () {
    await rm(root, { recursive: true, force: true });
  });

  it('writes <recordingsDir>/<callId>.wav and returns its path relative to the data folder when inside it', async function () {
    const dirs = { dataDir: join(root, 'data'), recordingsDir: join(root, 'data', 'recordings') };
    const wav = Buffer.from('RIFF-not-really-a-wav');
    const stored = await writeRecording(dirs, 'call-1', wav);
    expect(stored).to.equal('recordings/call-1.wav');
    expect(await readFile(resolve(dirs.dataDir, stored))).to.deep.equal(wav);
    expect(await readdir(dirs.recordingsDir)).to.deep.equal(['call-1.wav']);
  });

  it('returns an absolute path when the recordings folder is outside the data folder', async function () {
    const dirs = { dataDir: join(root, 'data'), recordingsDir: join(root, 'elsewhere', 'audio') };
    const stored = await writeRecording(dirs, 'call-2', Buffer.from('abc'));
    expect(stored).to.equal(join(root, 'elsewhere', 'audio', 'call-2.wav'));
    expect((await readFile(resolve(dirs.dataDir, stored))).toString()).to.equal('abc');
  });

  it('replaces an earlier file for the same call whole, leaving no partial file behind', async function () {
    const dirs = { dataDir: root, recordingsDir: join(root, 'recordings') };
    await writeRecording(dirs, 'call-3', Buffer.alloc(1000, 1));
    const stored = await writeRecording(dirs, 'call-3', Buffer.alloc(10, 2));
    expect(await readFile(resolve(root, stored))).to.deep.equal(Buffer.alloc(10, 2));
    expect(await readdir(dirs.recordingsDir)).to.deep.equal(['call-3.wav']);
  });

  it('refuses a call id that is not a plain file name', async function () {
    const dirs = { dataDir: root, recordingsDir: join(root, 'recordings') };
    for (const id of ['../escape', 'a/b', '', '.']) {
      const error = await writeRecording(dirs, id, Buffer.from('x')).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, id).to.be.instanceOf(Error);
    }
    expect(await readdir(root)).to.deep.equal([]);
  });

  it('keeps a folder beside the data folder whose name starts like it absolute', function () {
    expect(storedRecordingPath('/srv/data', '/srv/data-recordings/x.wav')).to.equal('/srv/data-recordings/x.wav');
    expect(storedRecordingPath('/srv/data', '/srv/data/recordings/x.wav')).to.equal('recordings/x.wav');
    expect(storedRecordingPath('/srv/data/', '/srv/other/x.wav')).to.equal('/srv/other/x.wav');
  });
});

describe('SVC_RECORDINGS_DIR', function () {
  it('defaults to <SVC_DATA_DIR>/recordings', function () {
    expect(loadConfig({ SVC_DATA_DIR: '/srv/svc' }).recordingsDir).to.equal('/srv/svc/recordings');
    expect(loadConfig({}).recordingsDir).to.equal(resolve('./data/recordings'));
  });

  it('takes an absolute folder as given and a relative one from the working directory', function () {
    expect(loadConfig({ SVC_DATA_DIR: '/srv/svc', SVC_RECORDINGS_DIR: '/mnt/audio' }).recordingsDir).to.equal('/mnt/audio');
    expect(loadConfig({ SVC_RECORDINGS_DIR: 'audio' }).recordingsDir).to.equal(resolve('audio'));
  });
});
