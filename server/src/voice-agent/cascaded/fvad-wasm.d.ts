// The slice of @echogarden/fvad-wasm (libfvad, the WebRTC voice activity detector, built with Emscripten) that
// voice-activity.ts uses: the C functions as the module exports them, and its 16-bit view of the heap.
declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    /** The heap as 16-bit words; replaced when the heap grows, so it is read afresh on each use. */
    HEAP16: Int16Array;
    _malloc(bytes: number): number;
    _free(pointer: number): void;
    /** A detector in mode 0 at 8 kHz; 0 when out of memory. */
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    /** 0-3, each more eager to call a frame not speech; -1 for another value. */
    _fvad_set_mode(handle: number, mode: number): number;
    /** 8000, 16000, 32000 or 48000; -1 for another value. */
    _fvad_set_sample_rate(handle: number, rate: number): number;
    /** 1 speech, 0 not, -1 for a frame that is not 10, 20 or 30 ms long. */
    _fvad_process(handle: number, frame: number, samples: number): number;
  }

  export default function createFvad(options?: object): Promise<FvadModule>;
}
