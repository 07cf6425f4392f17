// The slice of the espeak-ng package (Emscripten build of the espeak-ng command line) that the synthesiser uses.
declare module 'espeak-ng' {
  export interface EspeakFs {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
    unlink(path: string): void;
    readdir(path: string): string[];
    isDir(mode: number): boolean;
    stat(path: string): { mode: number };
  }

  export interface EspeakModule {
    FS: EspeakFs;
  }

  export interface EspeakModuleOptions {
    arguments?: string[];
    noInitialRun?: boolean;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    instantiateWasm?: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
  }

  export default function ESpeakNg(options?: EspeakModuleOptions): Promise<EspeakModule>;
}
