import { Essentia, EssentiaWASM, type EssentiaVector } from 'essentia.js';

let instance: Essentia | undefined;

/**
 * The essentia.js instance of this thread, loaded on first use (~100 ms).
 *
 * Loading the WASM module installs process-wide `uncaughtException` / `unhandledRejection`
 * handlers that turn any unhandled rejection of the host into exit 7 with a heap dump; the
 * handlers it added are removed right after loading so the host keeps its own error handling.
 */
export function loadEssentia(): Essentia {
  if (instance) return instance;
  const exceptionBefore = new Set(process.listeners('uncaughtException'));
  const rejectionBefore = new Set(process.listeners('unhandledRejection'));
  const essentia = new Essentia(EssentiaWASM);
  for (const l of process.listeners('uncaughtException')) {
    if (!exceptionBefore.has(l)) process.removeListener('uncaughtException', l);
  }
  for (const l of process.listeners('unhandledRejection')) {
    if (!rejectionBefore.has(l)) process.removeListener('unhandledRejection', l);
  }
  instance = essentia;
  return essentia;
}

/** Copies a WASM vector into a JS array and frees the vector (every returned vector must be deleted). */
export function takeArray(essentia: Essentia, vector: EssentiaVector): Float32Array {
  try {
    return essentia.vectorToArray(vector);
  } finally {
    vector.delete();
  }
}

/**
 * Runs `fn` with a WASM copy of `signal` and frees it afterwards, whatever `fn` does.
 * essentia's C++ errors arrive as plain numbers, not Errors: they are wrapped here.
 */
export function withVector<T>(essentia: Essentia, signal: Float32Array, fn: (v: EssentiaVector) => T): T {
  const vector = essentia.arrayToVector(signal) as EssentiaVector;
  try {
    return fn(vector);
  } catch (error) {
    if (error instanceof Error) throw error;
    throw new Error(`essentia failed with native error ${String(error)}`);
  } finally {
    vector.delete();
  }
}
