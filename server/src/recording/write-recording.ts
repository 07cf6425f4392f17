// Stores a call's WAV under the recordings folder and returns the path the call row keeps. The recording route
// resolves that path against the data folder, so it is relative to the data folder when the recordings live
// inside it (the default, and the data folder can move) and absolute when they live elsewhere.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';

export interface RecordingDirs {
  dataDir: string;
  /** SVC_RECORDINGS_DIR; `<dataDir>/recordings` by default. */
  recordingsDir: string;
}

/** Writes `<recordingsDir>/<callId>.wav` atomically (a reader never sees half a file) and returns its stored path. */
export async function writeRecording(dirs: RecordingDirs, callId: string, wav: Buffer): Promise<string> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(callId)) throw new Error(`unsafe call id for a file name: ${JSON.stringify(callId)}`);
  const folder = resolve(dirs.recordingsDir);
  await mkdir(folder, { recursive: true });
  const file = join(folder, `${callId}.wav`);
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
