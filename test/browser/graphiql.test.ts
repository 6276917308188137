import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { buildDashboard, CHROMIUM, SCREENSHOTS, hasChromium, launchBrowser, type Browser } from '../helpers/browser';
import { FakeEngine } from '../../measure/http/fake-engine';
import { createTestApp, TEST_API_KEY, type TestApp } from '../helpers/test-app';


const describeInBrowser = hasChromium() ? describe : describe.skip;
const skipped = `SKIPPED: no browser at ${CHROMIUM} (\`apt-get install -y chromium\`, as .ci/run does)`;
const title = hasChromium() ? 'GraphiQL at /graphiql in Chromium, offline' : `GraphiQL at /graphiql in Chromium (${skipped})`;
if (!hasChromium()) console.warn(`test/browser/graphiql.test.ts: ${skipped}`);

/**
 * GraphiQL as a user opens it from the /graphql landing page, with every request to another host
 * refused (test/helpers/browser.ts): its scripts, styles, fonts and Monaco's workers come from this
 * server, the key goes into its Headers tab, and a query is answered.
 */
describeInBrowser(title, () => {
  let t: TestApp;
  let dist: string;
  let browser: Browser;
  let page: Page;
  let origin: string;
  /** Every URL the page (and its workers) asked for. */
  const requested: string[] = [];

  /** The text of GraphiQL's result pane, its spaces plain (Monaco lays text out with no-break spaces). */
  const result = async (p: Page) => (await p.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');

  /** Waits until GraphiQL's result pane shows `text`. */
  async function responseShows(p: Page, text: string): Promise<void> {
    await p.waitForFunction((wanted) => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document;
      return doc.querySelector('.graphiql-response')?.textContent.replace(/\s+/g, ' ').includes(wanted) ?? false;
    }, text);
  }

  /** Replaces the operation editor's text (Monaco) and runs it. */
  async function run(p: Page, document: string): Promise<void> {
    const editor = p.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.click();
    await p.keyboard.press('ControlOrMeta+A');
    await p.keyboard.press('Delete');
    // insertText types no keys, so the editor's bracket and quote completion add nothing.
    await p.keyboard.insertText(document);
    await p.getByRole('button', { name: /^Prettify query/ }).click();
    // Back to the start of the document, so the editor shows it from its first column.
    await editor.click();
    await p.keyboard.press('ControlOrMeta+Home');
    await p.getByRole('button', { name: /^Execute query/ }).click();
  }

  beforeAll(async () => {
    dist = await buildDashboard();
    const engine = new FakeEngine();
    engine.tags.set('money.mp3', { artist: 'Pink Floyd', title: 'Money' });
    t = await createTestApp({
      engine,
      dashboardDir: dist,
      prepareLibrary: (dir) => writeFile(path.join(dir, 'money.mp3'), 'bytes of money'),
    });
    const { port } = await t.listen();
    origin = `http://127.0.0.1:${port}`;
    browser = await launchBrowser({ origin, aliasOrigin: 'http://trackgraph.test' });
    page = browser.page;
    browser.context.on('request', (r) => void requested.push(r.url()));
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('the /graphql landing page links to GraphiQL, which opens without a key and says one is needed', async () => {
    await page.goto(`${origin}/graphql`);
    await page.getByRole('heading', { name: 'trackgraph GraphQL API' }).waitFor();
    expect(await page.getByRole('link', { name: 'Apollo Sandbox' }).getAttribute('href')).toBe('graphql?sandbox');
    await page.getByRole('link', { name: 'GraphiQL' }).click();
    await page.waitForURL(`${origin}/graphiql`);
    await page.getByRole('textbox', { name: 'API key' }).waitFor();
    // Without a key nothing is sent (the server would answer 401); GraphiQL shows why it has no schema.
    await responseShows(page, 'Every request needs an API key');
    expect(requested.filter((url) => url.endsWith('/graphql') && url.startsWith(origin))).toHaveLength(1); // the landing page itself
    expect(browser.takeProblems()).toEqual([]);
  }, 60_000);

  it('with the key set, reads the schema, runs a query and shows the answer', async () => {
    await page.getByRole('textbox', { name: 'API key' }).fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Use key' }).click();
    // The Headers tab holds the key as a Bearer token.
    await page.getByRole('button', { name: 'Headers' }).waitFor();
    await page.waitForFunction((key) => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document;
      return doc.querySelector('.graphiql-editor-tool')?.textContent.replace(/\s+/g, ' ').includes(`"Authorization": "Bearer ${key}"`) ?? false;
    }, TEST_API_KEY);

    await run(page, '{ trackKey(artist: "Pink Floyd", track: "Money") }');
    await responseShows(page, '"trackKey": "bc24aaa5a97c70ed"');

    await run(page, 'query Find { search(track: "Money", artist: "Pink Floyd") { trackKey trackName match_score } }');
    await responseShows(page, '"match_score"');
    expect(await result(page)).toContain('"trackName": "Money"');

    // The schema came with the key: the documentation explorer lists the root fields.
    await page.getByRole('button', { name: /Show Documentation Explorer/ }).click();
    await page.getByRole('link', { name: 'Query' }).click();
    await page.getByText('analysisStatus', { exact: true }).first().waitFor();
    // Focus off the editors, and their scrollbars faded out, so that no blinking cursor or fading
    // bar makes one screenshot differ from the next.
    await page.locator('.explorer-note').click();
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }).document.querySelectorAll('.monaco-scrollable-element > .scrollbar.visible').length === 0,
    );
    await page.screenshot({ path: path.join(SCREENSHOTS, 'graphiql-desktop.png'), animations: 'disabled' });
    expect(browser.takeProblems()).toEqual([]);
  }, 60_000);

  it('loaded everything from this server, Monaco’s workers included, under a policy that allows only it', async () => {
    expect(requested.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requested.some((url) => /\/assets\/graphql\.worker-[\w-]+\.js$/.test(url))).toBe(true);
    expect(requested.some((url) => /\/assets\/editor\.worker-[\w-]+\.js$/.test(url))).toBe(true);
    const response = await page.request.get(`${origin}/graphiql`);
    const csp = response.headers()['content-security-policy'] ?? '';
    for (const directive of ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "worker-src 'self'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
    expect(csp).not.toMatch(/https?:|\*/);
  });
});
