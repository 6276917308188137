import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, which playwright-core drives (it downloads no browser of its own). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Where the browser tests save their screenshots: the README's, in docs/screenshots, when
 * UPDATE_SCREENSHOTS=1 (`npm run screenshots`; SCREENSHOTS_DIR sends them elsewhere, as the smoke
 * test of that command does); otherwise a temporary folder, so that a test run takes every
 * screenshot but leaves the tracked files alone.
 */
export const SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? (process.env.SCREENSHOTS_DIR ?? path.resolve(__dirname, '..', '..', 'docs', 'screenshots'))
    : path.join(os.tmpdir(), 'trackgraph-screenshots');
export const hasChromium = (): boolean => existsSync(CHROMIUM);

/** Headless, no sandbox (containers), and nothing that reaches the network by itself. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = path.resolve(__dirname, '..', '..');

/** The files a build of the dashboard reads: web/ (but its own output) and the lock file. */
async function dashboardSourcesHash(): Promise<string> {
  const hash = createHash('sha256');
  const files: string[] = ['package-lock.json'];
  const visit = async (dir: string): Promise<void> => {
    for (const entry of (await readdir(path.join(ROOT, dir), { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative !== path.join('web', 'dist') && entry.name !== 'node_modules') await visit(relative);
      } else files.push(relative);
    }
  };
  await visit('web');
  for (const file of files) hash.update(`${file}\0`).update(await readFile(path.join(ROOT, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the dashboard (Vite, web/) as `npm run build` builds web/dist, into a folder of the
 * temporary directory named by a hash of its sources, and answers that folder: the browser test
 * files share one build (about 6 s of CPU each), the first to ask builds it while the others
 * wait on a lock directory, and a build of unchanged sources is reused by the next run. The
 * folder is read only: callers do not remove it.
 */
export async function buildDashboard(): Promise<string> {
  const out = path.join(os.tmpdir(), `trackgraph-web-${await dashboardSourcesHash()}`);
  const lock = `${out}.building`;
  const built = (): boolean => existsSync(path.join(out, 'index.html'));
  for (const deadline = Date.now() + 300_000; !built(); ) {
    try {
      await mkdir(lock);
    } catch {
      // Another file is building it (or a killed run left its lock: taken over after 5 minutes).
      if (Date.now() > deadline) await rm(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (built()) break;
      const building = await mkdtemp(`${out}-`);
      const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
      try {
        await promisify(execFile)(process.execPath, [vite, 'build', '--config', 'web/vite.config.mjs', '--outDir', building, '--emptyOutDir'], { cwd: ROOT });
        await rm(out, { recursive: true, force: true });
        await rename(building, out);
      } finally {
        // A failed build leaves nothing behind (after the rename there is nothing here).
        await rm(building, { recursive: true, force: true });
      }
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
  return out;
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught page errors and refused requests since the last take(). */
  takeProblems(): string[];
  close(): Promise<void>;
}

/**
 * Chromium on a fresh profile, one page, watched for console errors and page errors. Requests
 * go to `origin` only: requests to `aliasOrigin` (the PUBLIC_URL the server writes into artwork
 * URLs) are answered by `origin`, and any other is refused and reported, so no test reaches the
 * network.
 */
export async function launchBrowser(options: { origin: string; aliasOrigin: string }): Promise<Browser> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 900 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    colorScheme: 'light',
  });
  const problems: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(`${options.origin}/`)) await route.continue();
    else if (url.startsWith(`${options.aliasOrigin}/`)) {
      const response = await route.fetch({ url: options.origin + url.slice(options.aliasOrigin.length) });
      await route.fulfill({ response });
    } else {
      problems.push(`request outside the test server: ${url}`);
      await route.abort();
    }
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return {
    context,
    page,
    takeProblems: () => problems.splice(0),
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Violations of WCAG 2.1 A/AA and axe's best practices on the page as it is now (axe-core, run in the page). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const source = require.resolve('axe-core/axe.min.js');
  // Evaluated through the DevTools protocol, which the page's script-src 'self' does not govern.
  await page.evaluate(await readFile(source, 'utf8'));
  return page.evaluate(async () => {
    const page = globalThis as unknown as {
      document: unknown;
      axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: unknown }[] }[] }> };
    };
    const result = await page.axe.run(page.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`);
  });
}
