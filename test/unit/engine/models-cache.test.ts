import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HAVE_TEST_MODELS, TEST_MODELS_DIR } from '../../helpers/test-models';
import { readModelFiles } from '../../../src/engine/models/model-files';
import { type PreparedModels, prepareModels, prepareModelsCached } from '../../../src/engine/models/model-prepared';

/*
 * The prepared models kept in DATA_DIR/cache between processes: read back exactly as prepared,
 * made again (and the file written again) when it is damaged, and never shared between ranks.
 * Rank 8 keeps each preparation short.
 */

jest.setTimeout(120_000);
if (!HAVE_TEST_MODELS) console.warn(`prepared-models cache tests SKIPPED: no models at "${TEST_MODELS_DIR}" (set TRACKGRAPH_TEST_MODELS_DIR to the models' folder)`);
const withModels = HAVE_TEST_MODELS ? describe : describe.skip;

/** Everything a prepared set holds, typed arrays as plain arrays of their bytes, for a deep comparison. */
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
  let fresh: unknown;
  let read: ReturnType<typeof readModelFiles> | undefined;
  const files = (): ReturnType<typeof readModelFiles> => (read ??= readModelFiles(TEST_MODELS_DIR));
  const cacheFiles = (): string[] => readdirSync(dir).sort();

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'trackgraph-models-cache-'));
    fresh = plain(prepareModels(files(), RANK));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are written once, then read back exactly as prepared, their weights in shared memory', () => {
    expect(plain(prepareModelsCached(files(), RANK, dir))).toEqual(fresh);
    const [written] = cacheFiles();
    expect(cacheFiles()).toEqual([expect.stringMatching(/^prepared-models-[0-9a-f]{32}\.bin$/)]);
    const before = statSync(path.join(dir, written!));
    const again = prepareModelsCached(files(), RANK, dir);
    expect(plain(again)).toEqual(fresh);
    expect(again.models[0]!.weights.buffer).toBeInstanceOf(SharedArrayBuffer);
    // Read, not made and written again.
    const after = statSync(path.join(dir, written!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it.each([
    ['cut short', (file: string) => truncateSync(file, Math.floor(statSync(file).size / 2))],
    ['one weight byte changed', (file: string) => {
      const bytes = readFileSync(file);
      bytes[bytes.length - 100] = 0xff - bytes[bytes.length - 100]!;
      writeFileSync(file, bytes);
    }],
  ])('when the file is %s, are prepared afresh and written again', (_what, damage) => {
    prepareModelsCached(files(), RANK, dir);
    const file = path.join(dir, cacheFiles()[0]!);
    damage(file);
    expect(plain(prepareModelsCached(files(), RANK, dir))).toEqual(fresh);
    // The file is whole again: the next start reads it as written.
    const before = statSync(file);
    expect(plain(prepareModelsCached(files(), RANK, dir))).toEqual(fresh);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
  });

  it('keep a set per rank: another rank is another file, never the first one read', () => {
    const other = prepareModelsCached(files(), RANK + 1, dir);
    expect(other.rank).toBe(RANK + 1);
    expect(plain(other)).not.toEqual(fresh);
    expect(cacheFiles()).toHaveLength(2);
  });

  it('cost only the time where the folder cannot be written', () => {
    const blocked = path.join(dir, 'a-file-not-a-folder');
    writeFileSync(blocked, '');
    expect(plain(prepareModelsCached(files(), RANK, blocked))).toEqual(fresh);
  });
});
