// Stores a call's WAV under the recordings folder and returns the path the call row keeps. The recording route
// resolves that path against the data folder, so it is relative to the data folder when the recordings live
// inside it (the default, and the data folder can move) and absolute when they live elsewhere.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

export interface RecordingDirs {
  dataDir: string;
  /** SVC_RECORDINGS_DIR; `<dataDir>/recordings` by default. */
  recordingsDir: string;
}

/** Which rendition of a recording: the v1 one (mono, the call's `recordingUrl`), or the agent and callee apart. */
export type RecordingChannels = 1 | 2;

/** `<recordingsDir>/<callId>.wav` (or `<callId>.2ch.wav`, the two-channel one): where a call's recording is written. */
export function recordingFile(dirs: RecordingDirs, callId: string, channels: RecordingChannels = 1): string {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(callId)) throw new Error(`unsafe call id for a file name: ${JSON.stringify(callId)}`);
  return join(resolve(dirs.recordingsDir), `${callId}${channels === 2 ? '.2ch' : ''}.wav`);
}

/** The two-channel rendition's stored path beside the v1 recording's (`….wav` → `….2ch.wav`). */
export function twoChannelPath(storedPath: string): string {
  return storedPath.replace(/\.wav$/, '.2ch.wav');
}

/** Writes the recording file atomically (a reader never sees half a file) and returns its stored path. */
export async function writeRecording(dirs: RecordingDirs, callId: string, wav: Buffer, channels: RecordingChannels = 1): Promise<string> {
  const file = recordingFile(dirs, callId, channels);
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
  try {
    await writeFile(partial, wav);
    await rename(partial, file);
  } catch (e) {
    await rm(partial, { force: true });
    throw e;
  }
  return storedRecordingPath(dirs.dataDir, file);
}

/** `file` relative to the data folder when inside it, else absolute; `resolve(dataDir, stored)` gives `file` back. */
export function storedRecordingPath(dataDir: string, file: string): string {
  const inside = relative(resolve(dataDir), file);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : file;
}
