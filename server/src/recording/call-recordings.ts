// A call's recording as a file. A carrier that records the line has its recording fetched to the recordings folder
// (the call's recording_path). Otherwise (the sandbox) the call keeps what its recording is rendered from
// (recording_request_json), and it is rendered the first time it is asked for, then kept as
// <recordingsDir>/<callId>.wav. Synthesis costs CPU for every call, whole cores at high call rates
// (docs/performance.md), and most recordings are never listened to; the renders are deterministic, so a
// recording rendered late is the one rendered at the call's end. A process whose folder lacks the file (another
// host, a folder cleared) renders it again.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CallRow } from '../store/calls-repo.js';
import type { Recorder, RecordingRequest } from './recorder.js';
import { recordingFile, twoChannelPath, writeRecording, type RecordingChannels, type RecordingDirs } from './write-recording.js';

export interface RecordingFile {
  path: string;
  size: number;
}

export class CallRecordings {
  /** Renders under way in this process, by call: two requests for one recording render it once. */
  private readonly rendering = new Map<string, Promise<RecordingFile>>();

  constructor(
    private readonly recorder: Recorder,
    private readonly dirs: RecordingDirs,
  ) {}

  /**
   * The call's recording, rendered first if it has not been; null when the call has none (yet). The two-channel
   * rendition is a carrier's only (stored beside its v1 recording): the sandbox renders one channel.
   */
  async fileOf(call: Pick<CallRow, 'id' | 'recording_path' | 'recording_request_json'>, channels: RecordingChannels = 1): Promise<RecordingFile | null> {
    if (channels === 2) return call.recording_path === null ? null : existing(resolve(this.dirs.dataDir, twoChannelPath(call.recording_path)));
    if (call.recording_path !== null) return existing(resolve(this.dirs.dataDir, call.recording_path));
    if (call.recording_request_json === null) return null;
    const rendered = await existing(recordingFile(this.dirs, call.id));
    if (rendered) return rendered;
    let render = this.rendering.get(call.id);
    if (!render) {
      render = this.render(call.id, call.recording_request_json).finally(() => this.rendering.delete(call.id));
      this.rendering.set(call.id, render);
    }
    return render;
  }

  private async render(callId: string, requestJson: string): Promise<RecordingFile> {
    const wav = await this.recorder.render(JSON.parse(requestJson) as RecordingRequest);
    const stored = await writeRecording(this.dirs, callId, wav);
    return { path: resolve(this.dirs.dataDir, stored), size: wav.length };
  }
}

async function existing(path: string): Promise<RecordingFile | null> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? { path, size: info.size } : null;
}
