import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config';
import { sharedSweepAgeMs } from '../../../src/compose/uploads.compose';
import { UploadService, type UploadOptions } from '../../../src/uploads/upload.service';
import { UploadSource } from '../../../src/uploads/upload.source';

const HOUR = 3_600_000;

describe('the start-up sweep of the uploads folder', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-sweep-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Only start() is called: the analysis side is never reached. */
  const service = (options: Partial<UploadOptions>): UploadService =>
    new UploadService({} as never, {} as never, {} as never, {} as never, new UploadSource(dir), { dir, maxBytes: 1024, ...options }, pino({ level: 'silent' }));

  async function files(now: number): Promise<void> {
    // One left by a crash two hours ago, one another node is receiving, one it holds for a queued job.
    await writeFile(path.join(dir, 'crashed.part'), 'x');
    await utimes(path.join(dir, 'crashed.part'), new Date(now - 2 * HOUR), new Date(now - 2 * HOUR));
    await writeFile(path.join(dir, 'receiving.part'), 'x');
    await writeFile(path.join(dir, 'a'.repeat(64)), 'x');
  }

  it('when the folder is this process\'s alone (embedded), then it is emptied', async () => {
    const now = Date.now();
    await files(now);
    await service({}).start(now);
    expect(await readdir(dir)).toEqual([]);
  });

  it('when the folder is shared (QUEUE_URL), then only files older than the sweep age go: other nodes\' uploads under way stay', async () => {
    const now = Date.now();
    await files(now);
    await service({ sweepOlderThanMs: HOUR }).start(now);
    expect((await readdir(dir)).sort()).toEqual(['a'.repeat(64), 'receiving.part']);
  });

  it('sweeps shared folders after an hour, or two analysis timeouts when longer; UPLOAD_DIR defaults to DATA_DIR/uploads', () => {
    expect(sharedSweepAgeMs(loadConfig({}))).toBe(HOUR);
    expect(sharedSweepAgeMs(loadConfig({ ANALYSIS_TIMEOUT_MS: String(HOUR) }))).toBe(2 * HOUR);
    expect(loadConfig({ DATA_DIR: '/srv/tg' }).uploadDir).toBe(path.resolve('/srv/tg/uploads'));
    expect(loadConfig({ DATA_DIR: '/srv/tg', UPLOAD_DIR: '/mnt/shared/uploads' }).uploadDir).toBe(path.resolve('/mnt/shared/uploads'));
  });
});
