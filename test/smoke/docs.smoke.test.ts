import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { readdir, rm, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { hasChromium } from '../helpers/browser';
import { ROOT, npmRun, ok, run, tempDir, userEnv } from './smoke.helpers';

/*
 * The commands the documents name, against what the smoke suite and CI run: a script README,
 * docs/ or BENCHMARKS.md tell a user to run and nothing runs fails here, so a new command cannot
 * be documented without being tried. Also runs the documented commands no other smoke file runs
 * (the unit tests alone, codegen, screenshots).
 */

jest.setTimeout(300_000);

/** Which smoke file runs each documented script (CI itself runs `npm ci`, `npm test`, `npm run lint`: .ci/run). */
const COVERED: Record<string, string> = {
  start: 'commands.smoke.test.ts',
  build: 'commands.smoke.test.ts (npm start runs it first, as prestart)',
  'build:web': 'commands.smoke.test.ts (part of build)',
  index: 'commands.smoke.test.ts',
  analyse: 'commands.smoke.test.ts',
  apikey: 'commands.smoke.test.ts',
  worker: 'commands.smoke.test.ts',
  schema: 'commands.smoke.test.ts',
  openapi: 'commands.smoke.test.ts',
  codegen: 'docs.smoke.test.ts',
  screenshots: 'docs.smoke.test.ts',
  'test:unit': 'docs.smoke.test.ts',
  lint: '.ci/run',
  test: '.ci/run',
  'test:smoke': '.ci/run',
};

/** Every `npm run <script>` and `npm start`/`npm test` in the user-facing documents. */
function documentedScripts(): Set<string> {
  const docs = ['README.md', 'BENCHMARKS.md', 'SECURITY.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];
  const found = new Set<string>();
  for (const doc of docs) {
    const file = path.join(ROOT, doc);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, 'utf8');
    // `npm run test:<project>` names a family, not a script: a name ends in a letter or digit.
    for (const m of text.matchAll(/npm run ([a-z][\w-]*(?::[\w-]*[a-z0-9])?)(?![\w:<-])/g)) found.add(m[1]!);
    for (const m of text.matchAll(/npm (start|test)\b/g)) found.add(m[1]!);
  }
  return found;
}

function smokeSources(): string {
  return readdirSync(__dirname).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(path.join(__dirname, f), 'utf8')).join('\n');
}

it('every script the documents name exists and is run by the smoke suite or by CI', () => {
  const scripts = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const documented = documentedScripts();
  expect(documented.size).toBeGreaterThan(10);
  const sources = smokeSources();
  const ci = readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
  const unrun: string[] = [];
  const missing = [...documented].filter((name) => scripts[name] === undefined);
  expect(missing).toEqual([]);
  for (const name of documented) {
    const bench = name.startsWith('bench:');
    const ranHere = bench ? sources.includes(`npmRun('${name}'`) : COVERED[name] !== undefined;
    if (!ranHere) unrun.push(name);
  }
  expect(unrun).toEqual([]);
  // What COVERED says runs, runs: the smoke files call it, or .ci/run does.
  for (const [name, where] of Object.entries(COVERED)) {
    if (where === '.ci/run') expect(ci).toMatch(new RegExp(`npm (run )?${name}\\b`));
    else if (!where.includes('(')) expect(sources).toMatch(new RegExp(`(npmRun\\('${name}'|'npm', \\[('run', )?'${name}'\\])`));
  }
});

it('npm run test:unit runs the unit project alone and passes', async () => {
  const ran = await npmRun('test:unit', [], userEnv(), 280_000);
  const out = ran.stdout + ran.stderr;
  // On a failure, what failed: each failing test's report, not only the exit code.
  expect({ code: ran.code, failed: out.split(/\n(?=\s+● )/).filter((part) => /^\s+● /.test(part)) }).toEqual({ code: 0, failed: [] });
  expect(out).toMatch(/Tests:\s+\d+ passed, \d+ total/);
  // Only the unit project: no engine, integration or browser test file ran.
  expect(out).not.toMatch(/test\/(unit\/engine|integration|browser)\//);
});

it('npm run codegen writes the typed documents that are committed', async () => {
  const ran = await npmRun('codegen', [], userEnv(), 240_000);
  expect(ran.code).toBe(0);
  const diff = await run('git', ['status', '--porcelain', '--', 'test/generated', 'web/src/gql'], userEnv(), 30_000);
  expect(diff.stdout).toBe('');
});

const withChromium = hasChromium() ? it : it.skip;
withChromium('npm run screenshots drives the dashboard in Chromium and saves every screenshot', async () => {
  const dir = await tempDir('screenshots');
  await mkdir(dir, { recursive: true });
  try {
    ok(await npmRun('screenshots', [], userEnv({ SCREENSHOTS_DIR: dir }), 280_000));
    const pngs = (await readdir(dir)).filter((f) => f.endsWith('.png'));
    // The screenshots README shows: desktop and phone views of the sign-in, search, track and browse pages.
    const committed = readdirSync(path.join(ROOT, 'docs', 'screenshots')).filter((f) => f.endsWith('.png'));
    expect(pngs.sort()).toEqual(expect.arrayContaining(committed.sort()));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
