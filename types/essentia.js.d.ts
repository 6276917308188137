// essentia.js 0.1.3 ships typings for its core class only (dist/core_api.d.ts), not for the
// package entry; this module declaration re-exports them.
declare module 'essentia.js' {
  import type EssentiaCore from 'essentia.js/dist/core_api';

  /** A std::vector living on the WASM heap: it must be delete()d once read. */
  export interface EssentiaVector {
    size(): number;
    get(index: number): number;
    delete(): void;
  }

  export const Essentia: typeof EssentiaCore;
  export type Essentia = EssentiaCore;
  export const EssentiaWASM: unknown;
}
