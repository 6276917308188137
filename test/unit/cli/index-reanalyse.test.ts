import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { pino } from 'pino';
import { runIndexCli } from '../../../src/cli/index-library';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { textSink } from '../../helpers/log-capture';

interface Row {
  track_key: string;
  engine: string;
  tempo: number;
  track_name: string;
}

describe('npm run index -- --reanalyse', () => {
  let dir: string;
  let library: string;
  let engine: FakeEngine;

  const run = async (args: string[]) => {
    const lines: string[] = [];
    const progress = textSink();
    const status = await runIndexCli(args, {
      out: (line) => lines.push(line),
      progress: progress.stream,
      env: {
        DATA_DIR: path.join(dir, 'data'),
        LIBRARY_DIR: library,
        SOURCES: 'library',
        CACHE_URL: `sqlite://${path.join(dir, 'data', 'cache.sqlite')}`,
        ANALYSIS_WORKERS: '2',
        LOG_LEVEL: 'silent',
      },
      overrides: { engine, logger: pino({ level: 'silent' }) },
    });
    return { status, lines, progress: progress.text() };
  };

  /** The stored rows, read beside the service as an operator would. */
  const rows = (): Row[] => {
    const db = new SQLite(path.join(dir, 'data', 'trackgraph.sqlite'), { readonly: true });
    try {
      return db.prepare('select track_key, engine, tempo, track_name from analyses order by track_key').all() as Row[];
    } finally {
      db.close();
    }
  };

  /** Makes `n` stored analyses look made by an older engine (with a tempo no analysis gives). */
  const age = (n: number, engineString: string): Row[] => {
    const db = new SQLite(path.join(dir, 'data', 'trackgraph.sqlite'));
    try {
      const keys = (db.prepare('select track_key from analyses order by track_key limit ?').all(n) as { track_key: string }[]).map((r) => r.track_key);
      const update = db.prepare('update analyses set engine = ?, tempo = 1 where track_key = ?');
      for (const key of keys) update.run(engineString, key);
    } finally {
      db.close();
    }
    return rows().filter((r) => r.engine === engineString);
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-reanalyse-'));
    library = path.join(dir, 'music');
    await mkdir(library, { recursive: true });
    for (let i = 0; i < 12; i++) await writeFile(path.join(library, `Band ${i} - Song ${i}.mp3`), `audio ${i}`);
    engine = new FakeEngine();
    expect((await run([library])).status).toBe(0);
    engine.analyseCalls = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('when nothing is older, then a dry run counts 0 and nothing is analysed', async () => {
    const dry = await run(['--reanalyse', '--dry-run']);
    expect(dry.status).toBe(0);
    expect(dry.lines[0]).toMatch(/^reanalyse \(dry run, nothing analysed\): 0 to redo; current engine trackgraph-engine\/\d+$/);
    expect(engine.analyseCalls).toBe(0);
  });

  it('a dry run counts the older analyses per engine and changes nothing', async () => {
    age(3, 'trackgraph-engine/1');
    const before = rows();
    const dry = await run(['--reanalyse', '--dry-run']);
    expect(dry.status).toBe(0);
    expect(dry.lines[0]).toMatch(/^reanalyse \(dry run, nothing analysed\): 3 to redo \(3 by trackgraph-engine\/1\); current engine /);
    expect(engine.analyseCalls).toBe(0);
    expect(rows()).toEqual(before);
  });

  it('replaces each older analysis from its library file, with a progress bar, and a second run has nothing left', async () => {
    const aged = age(5, 'trackgraph-engine/1');
    const untouched = rows().filter((r) => r.engine !== 'trackgraph-engine/1');
    const first = await run(['--reanalyse']);
    expect(first.status).toBe(0);
    expect(engine.analyseCalls).toBe(5);
    expect(first.progress).toMatch(/reanalysing \|.*\| 5\/5 tracks \| [\d.]+ tracks\/s \| ETA \S+ \| 5 replaced, 0 kept/);
    expect(first.lines[0]).toMatch(/^reanalyse: 5 to redo \(5 by trackgraph-engine\/1\), 5 replaced, 0 audio unavailable \(kept\), 0 failed \(kept\)/);
    const after = rows();
    for (const old of aged) {
      const now = after.find((r) => r.track_key === old.track_key)!;
      expect(now.engine).toBe('fake-engine');
      expect(now.tempo).toBeGreaterThanOrEqual(60);
    }
    // Only the older ones were redone; the key of each row is unchanged.
    expect(after.filter((r) => untouched.some((u) => u.track_key === r.track_key))).toEqual(untouched);
    expect(after).toHaveLength(12);

    engine.analyseCalls = 0;
    const second = await run(['--reanalyse']);
    expect(second.status).toBe(0);
    expect(second.lines[0]).toMatch(/^reanalyse: 0 to redo, 0 replaced/);
    expect(engine.analyseCalls).toBe(0);
  });

  it('--older-than redoes only the versions below it', async () => {
    age(2, 'trackgraph-engine/1');
    const db = new SQLite(path.join(dir, 'data', 'trackgraph.sqlite'));
    const newer = (db.prepare("select track_key from analyses where engine <> 'trackgraph-engine/1' order by track_key limit 3").all() as { track_key: string }[]).map((r) => r.track_key);
    for (const key of newer) db.prepare("update analyses set engine = 'trackgraph-engine/5' where track_key = ?").run(key);
    db.close();
    const dry = await run(['--reanalyse', '--dry-run', '--older-than', 'trackgraph-engine/3']);
    expect(dry.lines[0]).toMatch(/: 2 to redo \(2 by trackgraph-engine\/1\)/);
    const all = await run(['--reanalyse', '--dry-run']);
    expect(all.lines[0]).toMatch(/: 5 to redo \(2 by trackgraph-engine\/1, 3 by trackgraph-engine\/5\)/);
  });

  it('when a track\'s file is gone, then its old analysis is kept and reported, and the run exits 1', async () => {
    const aged = age(2, 'trackgraph-engine/1');
    const gone = aged[0]!;
    // Files are named "Band <i> - Song <i>.mp3".
    await rm(path.join(library, `Band ${gone.track_name.replace('Song ', '')} - ${gone.track_name}.mp3`));
    const result = await run(['--reanalyse']);
    expect(result.status).toBe(1);
    expect(result.lines[0]).toMatch(/1 replaced, 1 audio unavailable \(kept\), 0 failed/);
    expect(result.lines[1]).toMatch(new RegExp(`^  unavailable: ${gone.track_key} Band \\d+ - ${gone.track_name}: NO_AUDIO_SOURCE: `));
    const kept = rows().find((r) => r.track_key === gone.track_key)!;
    expect(kept).toEqual(gone);
  });

  it('refuses --older-than without --reanalyse and a version that is not one', async () => {
    expect((await run(['--older-than', '3'])).status).toBe(2);
    const bad = await run(['--reanalyse', '--older-than', 'yesterday']);
    expect(bad.status).toBe(2);
    expect(bad.lines[0]).toMatch(/olderThan must be an engine version/);
  });
});
