import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * scripts/run-built.cjs, the launcher of `npm run analyse` and `npm run index` (and of `npm run
 * build`'s compilation), on a project of two files made here: it compiles only when a source is
 * newer than the last compilation, runs the compiled entry as the main module with the
 * arguments, compiles once for two commands started together, and runs nothing when the
 * compilation fails.
 */

const REPO = path.resolve(__dirname, '../..');
let root: string;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'scripts/run-built.cjs'), ...args], { cwd: root });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const compiled = (r: Ran): boolean => r.stderr.includes('compiling the TypeScript sources');

/** Makes the last compilation look a minute old, so that every source is newer than it. */
async function ageStamp(): Promise<void> {
  const before = new Date(Date.now() - 60_000);
  await utimes(path.join(root, 'dist/.compiled'), before, before);
}

const ENTRY = `import { greeting } from './greeting';
if (require.main === module) process.stdout.write(greeting(process.argv.slice(2)) + '\\n');
`;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'run-built-'));
  await mkdir(path.join(root, 'scripts'));
  await mkdir(path.join(root, 'src/cli'), { recursive: true });
  await copyFile(path.join(REPO, 'scripts/run-built.cjs'), path.join(root, 'scripts/run-built.cjs'));
  await symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  // skipLibCheck as the project's own tsconfig.json has it: each compilation then checks the two
  // files, not @types/node again (about 3 s of CPU a compilation to 1).
  await writeFile(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', target: 'es2022', outDir: 'dist', rootDir: '.', types: ['node'], skipLibCheck: true } }),
  );
  await writeFile(path.join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));
  await writeFile(path.join(root, 'src/cli/greeting.ts'), 'export const greeting = (names: string[]): string => `hello ${names.join(" and ")}`;\n');
  await writeFile(path.join(root, 'src/cli/hello.ts'), ENTRY);
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('scripts/run-built.cjs', () => {
  it('compiles a fresh tree, runs the compiled entry as main with its arguments, then runs without compiling', async () => {
    const first = await run(['src/cli/hello.ts', 'ann', 'bo']);
    expect(first.code).toBe(0);
    expect(compiled(first)).toBe(true);
    expect(first.stdout).toBe('hello ann and bo\n');
    const second = await run(['src/cli/hello.ts', 'cy']);
    expect(second.code).toBe(0);
    expect(compiled(second)).toBe(false);
    expect(second.stdout).toBe('hello cy\n');
  }, 60_000);

  it('a changed source is compiled before the run; --compile compiles and runs nothing', async () => {
    await writeFile(path.join(root, 'src/cli/greeting.ts'), 'export const greeting = (names: string[]): string => `hi ${names.join(", ")}`;\n');
    await ageStamp();
    const ran = await run(['src/cli/hello.ts', 'ann', 'bo']);
    expect(compiled(ran)).toBe(true);
    expect(ran.stdout).toBe('hi ann, bo\n');
    const onlyCompile = await run(['--compile']);
    expect(onlyCompile).toEqual({ code: 0, stdout: '', stderr: '' });
  }, 60_000);

  it('two commands started together compile once and both run', async () => {
    await ageStamp();
    const both = await Promise.all([run(['src/cli/hello.ts', 'a']), run(['src/cli/hello.ts', 'b'])]);
    expect(both.map((r) => r.stdout)).toEqual(['hi a\n', 'hi b\n']);
    expect(both.filter(compiled)).toHaveLength(1);
  }, 60_000);

  it('a source that does not compile: exit status 2, the errors shown, nothing run; an entry outside src/ is refused', async () => {
    await writeFile(path.join(root, 'src/cli/greeting.ts'), 'export const greeting = (names: string[]): number => names;\n');
    await ageStamp();
    const broken = await run(['src/cli/hello.ts', 'ann']);
    expect(broken.code).toBe(2);
    expect(broken.stdout).toContain('error TS2322');
    expect(broken.stderr).toContain('the compilation failed');
    expect(broken.stdout).not.toContain('hi ann');
    const outside = await run(['../elsewhere.ts']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('usage:');
  }, 60_000);
});
