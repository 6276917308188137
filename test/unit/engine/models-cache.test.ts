import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HAVE_TEST_MODELS, TEST_MODELS_DIR } from '../../../measure/models/test-models';
import { readModelFiles } from '../../../src/engine/models/model-files';
import { type PreparedModels, cacheKey, decode, encode, prepareModels, prepareModelsCached } from '../../../src/engine/models/model-prepared';

/*
 * The prepared models kept in DATA_DIR/cache between processes: read back exactly as prepared,
 * made again (and the file written again) when it is damaged, never shared between ranks, and
 * only the time lost where the folder cannot be written. Each preparation costs seconds: the
 * file format's own cases are checked on the bytes, without preparing again.
 */

jest.setTimeout(120_000);
if (!HAVE_TEST_MODELS) console.warn(`prepared-models cache tests SKIPPED: no models at "${TEST_MODELS_DIR}" (set TRACKGRAPH_TEST_MODELS_DIR to the models' folder)`);
const withModels = HAVE_TEST_MODELS ? describe : describe.skip;

/** Everything a prepared set holds, typed arrays as their bytes, for a deep comparison. */
function plain(models: PreparedModels): unknown {
  return JSON.parse(
    JSON.stringify(models, (_key, value: unknown) =>
      value instanceof Float32Array || value instanceof Uint8Array ? { bytes: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') } : value,
    ),
  );
}

withModels('the prepared models, kept in a cache folder', () => {
  const RANK = 8;
  let dir: string;
  let prepared: PreparedModels;
  let fresh: unknown;
  let files: ReturnType<typeof readModelFiles>;
  const cacheFiles = (): string[] => readdirSync(dir).sort();

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-models-cache-'));
    files = readModelFiles(TEST_MODELS_DIR);
    prepared = prepareModels(files, RANK);
    fresh = plain(prepared);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are written once, then read back exactly as prepared, their weights in shared memory', () => {
    expect(plain(prepareModelsCached(files, RANK, dir))).toEqual(fresh);
    expect(cacheFiles()).toEqual([`prepared-models-${cacheKey(files, RANK)}.bin`]);
    const file = path.join(dir, cacheFiles()[0]!);
    const before = statSync(file);
    const again = prepareModelsCached(files, RANK, dir);
    expect(plain(again)).toEqual(fresh);
    expect(again.models[0]!.weights.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Read, not made and written again.
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('are read from a file only if it is whole and as written, and for the rank asked', () => {
    const bytes = encode(prepared);
    expect(plain(decode(bytes, RANK)!)).toEqual(fresh);
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 100] = 0xff - flipped[flipped.length - 100]!;
    expect(decode(flipped, RANK)).toBeUndefined();
    expect(decode(bytes.subarray(0, Math.floor(bytes.length / 2)), RANK)).toBeUndefined();
    expect(decode(Buffer.from('not a cache file'), RANK)).toBeUndefined();
    expect(decode(bytes, RANK + 1)).toBeUndefined();
    // Another rank is another file; so is other code or other model files (the key hashes both).
    expect(cacheKey(files, RANK + 1)).not.toBe(cacheKey(files, RANK));
  });

  it('when the file is damaged, are prepared afresh and written again', () => {
    const file = path.join(dir, `prepared-models-${cacheKey(files, RANK)}.bin`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] = 0xff - bytes[bytes.length - 100]!;
    writeFileSync(file, bytes);
    expect(plain(prepareModelsCached(files, RANK, dir))).toEqual(fresh);
    // Whole again: the next start reads it as written.
    expect(plain(decode(readFileSync(file), RANK)!)).toEqual(fresh);
  });

  it('cost only the time where the folder cannot be written', () => {
    const blocked = path.join(dir, 'a-file-not-a-folder');
    writeFileSync(blocked, '');
    expect(plain(prepareModelsCached(files, RANK, blocked))).toEqual(fresh);
  });
});
