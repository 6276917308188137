import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SIGNAL_EMBEDDING } from '../../src/core/sound';
import type { StoredAnalysis, TagScore } from '../../src/core/types';
import { LibraryMapDocument } from '../../web/src/gql/graphql';
import { HOME, toScreen } from '../../web/src/map/map.view';
import { accessibilityViolations, buildDashboard, CHROMIUM, SCREENSHOTS, hasChromium, launchBrowser, type Browser } from '../helpers/browser';
import { FakeEngine } from '../../measure/http/fake-engine';
import { createTestApp, TEST_API_KEY, type TestApp } from '../helpers/test-app';
import { graphql } from '../integration/graphql/graphql.helpers';
import { analysisOf } from '../integration/browse/browse.suite';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

const describeInBrowser = hasChromium() ? describe : describe.skip;
const skipped = `SKIPPED: no browser at ${CHROMIUM} (\`apt-get install -y chromium\`, as .ci/run does)`;
const title = hasChromium() ? 'the map of the library in Chromium' : `the map of the library in Chromium (${skipped})`;
if (!hasChromium()) console.warn(`test/browser/map.test.ts: ${skipped}`);

/** Three clusters of twenty songs: A and B tagged (rock, jazz), C analysed without the models (no genre). */
const CLUSTERS = ['A', 'B', 'C'] as const;
const PER_CLUSTER = 20;
const DIMS = 12;

function vectorOf(cluster: number, i: number): number[] {
  let s = (cluster * 100 + i) * 2654435761;
  const r = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296 - 0.5;
  };
  return Array.from({ length: DIMS }, (_, d) => (Math.floor(d / 4) === cluster ? 2 : 0) + r() * 1.2);
}

function tagsOf(cluster: number): TagScore[] | undefined {
  // The most probable is a voice, not a genre: the map's genre is the next.
  if (cluster === 0) return [{ name: 'female vocalists', probability: 0.7 }, { name: 'rock', probability: 0.6 }, { name: 'pop', probability: 0.2 }];
  if (cluster === 1) return [{ name: 'jazz', probability: 0.5 }, { name: 'Mellow', probability: 0.3 }];
  return undefined;
}

function song(cluster: number, i: number): StoredAnalysis {
  const letter = CLUSTERS[cluster]!;
  const tags = tagsOf(cluster);
  return analysisOf(`Cluster ${letter}`, `Song ${letter}${i}`, { embeddings: [{ kind: SIGNAL_EMBEDDING, vector: vectorOf(cluster, i) }], ...(tags ? { tags } : {}) }, cluster * 100 + i + 1);
}

/** In-page: how many pixels of the map's canvas differ from its corner's (the background), and a digest of the drawing. */
const CANVAS_STATE = `(() => {
  const c = document.querySelector('canvas.map-canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let painted = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) painted++;
  return { painted, image: c.toDataURL(), drawn: Number(c.dataset.drawn) };
})()`;

describeInBrowser(title, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let origin: string;

  /** What the canvas shows: pixels drawn, points in view, and a digest of the drawing. */
  const canvasState = async () => {
    const state = await page.evaluate<{ painted: number; image: string; drawn: number }>(CANVAS_STATE);
    return { ...state, image: createHash('sha256').update(state.image).digest('hex') };
  };

  /** Waits until the canvas has drawn again (two frames). */
  const frames = () => page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);

  function expectNoProblems(): void {
    expect(browser.takeProblems()).toEqual([]);
  }

  beforeAll(async () => {
    const dist = await buildDashboard();
    t = await createTestApp({ engine: new FakeEngine(), dashboardDir: dist });
    for (let c = 0; c < CLUSTERS.length; c++) for (let i = 0; i < PER_CLUSTER; i++) await t.container.store.save(song(c, i));
    const { port } = await t.listen();
    origin = `http://127.0.0.1:${port}`;
    browser = await launchBrowser({ origin, aliasOrigin: 'http://trackgraph.test' });
    page = browser.page;
    await page.setViewportSize(DESKTOP);
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.goto(`${origin}/`);
    await page.getByLabel('API key').fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('draws every analysed track as a point, coloured by mood with a legend; tempo and genre colour it otherwise', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Map' }).click();
    await page.getByRole('heading', { name: 'Map', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: '60 tracks on the map' }).waitFor({ timeout: 60_000 });
    const canvas = page.getByRole('img', { name: /^Map of 60 tracks by how they sound, coloured by mood/ });
    await canvas.waitFor();
    await page.waitForFunction(`document.querySelector('canvas.map-canvas').dataset.drawn === '60'`);
    expect(await page.locator('.map-readout').innerText()).toBe('60 of 60 tracks in view');
    const byMood = await canvasState();
    // Sixty dots of 3 px radius: hundreds of pixels drawn on the background.
    expect(byMood.painted).toBeGreaterThan(60 * 15);

    const legend = page.getByRole('list', { name: /^Legend/ });
    expect(await legend.getAttribute('aria-label')).toBe('Legend: strongest mood');
    const moods = await legend.getByRole('listitem').allInnerTexts();
    expect(moods.map((m) => m.replace(/\s*\(\d+\)$/, '').trim())).toEqual(['Happy', 'Sad', 'Relaxed', 'Aggressive']);
    expect(moods.reduce((sum, m) => sum + Number(/\((\d+)\)$/.exec(m)![1]), 0)).toBe(60);

    await page.getByLabel('Colour by').selectOption('tempo');
    await page.getByRole('list', { name: 'Legend: tempo, slow to fast' }).waitFor();
    const tempos = await page.getByRole('list', { name: /^Legend/ }).getByRole('listitem').allInnerTexts();
    expect(tempos).toHaveLength(5);
    expect(tempos[0]).toMatch(/^under \d+ BPM \(\d+\)$/);
    expect(tempos[4]).toMatch(/^\d+ BPM and over \(\d+\)$/);
    await frames();
    expect((await canvasState()).image).not.toBe(byMood.image);

    await page.getByLabel('Colour by').selectOption('genre');
    await page.getByRole('list', { name: 'Legend: top genre' }).waitFor();
    const genres = await page.getByRole('list', { name: /^Legend/ }).getByRole('listitem').allInnerTexts();
    // The most common first (ties by name); grey for the analyses without tags.
    expect(genres).toEqual(['jazz (20)', 'rock (20)', 'No genre (20)']);
    await page.getByRole('img', { name: /coloured by genre/ }).waitFor();
    await page.getByLabel('Colour by').selectOption('mood');
    expectNoProblems();
  }, 90_000);

  it('zooms with the buttons, the wheel and the keys, and the reset shows the whole map again', async () => {
    const zoom = page.locator('.map-zoom-level');
    await page.getByRole('img', { name: /coloured by mood/ }).waitFor();
    await frames();
    const whole = await canvasState();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByText('Zoom 150 %').waitFor();
    await frames();
    expect((await canvasState()).image).not.toBe(whole.image);
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByText('Zoom 225 %').waitFor();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByText('Zoom 150 %').waitFor();
    await page.getByRole('button', { name: 'Reset view' }).click();
    await page.getByText('Zoom 100 %').waitFor();
    await frames();
    expect((await canvasState()).image).toBe(whole.image);

    // The wheel zooms about the pointer: the track under it stays in view, others leave it.
    const { body } = await graphql(t, LibraryMapDocument, {});
    const point = body.data!.soundMap.points[0]!;
    const box = (await page.locator('canvas.map-canvas').boundingBox())!;
    const [sx, sy] = toScreen(HOME, box.width, box.height, point.x, point.y);
    await page.mouse.move(box.x + sx, box.y + sy);
    await page.mouse.wheel(0, -1200);
    await page.waitForFunction(`Number(/Zoom (\\d+) %/.exec(document.querySelector('.map-zoom-level').textContent)[1]) > 300`);
    await frames();
    const near = await canvasState();
    expect(near.drawn).toBeGreaterThan(0);
    expect(near.drawn).toBeLessThan(60);
    await page.mouse.move(box.x + sx, box.y + sy);
    await page.locator('.map-tooltip').filter({ hasText: `${point.artist} – ${point.trackName}` }).waitFor();

    // From the keyboard: 0 shows the whole map, an arrow moves it, + zooms in.
    await page.locator('canvas.map-canvas').focus();
    await page.keyboard.press('0');
    await page.getByText('Zoom 100 %').waitFor();
    await page.keyboard.press('ArrowLeft');
    await frames();
    expect((await canvasState()).image).not.toBe(whole.image);
    await page.keyboard.press('+');
    await page.getByText('Zoom 150 %').waitFor();
    expect(await zoom.innerText()).toBe('Zoom 150 %');
    await page.keyboard.press('0');
    await page.getByText('Zoom 100 %').waitFor();
    await frames();
    expect((await canvasState()).image).toBe(whole.image);
    await page.mouse.move(0, 0);
    expectNoProblems();
  }, 60_000);

  it('names a point under the pointer, and a click shows it with its nearest by sound', async () => {
    const { body } = await graphql(t, LibraryMapDocument, {});
    const points = body.data!.soundMap.points;
    // The point standing furthest from any other: a click there can only mean it.
    const alone = points
      .map((p) => ({ p, gap: Math.min(...points.filter((q) => q !== p).map((q) => Math.hypot(p.x - q.x, p.y - q.y))) }))
      .sort((a, b) => b.gap - a.gap)[0]!.p;
    const box = (await page.locator('canvas.map-canvas').boundingBox())!;
    const [sx, sy] = toScreen(HOME, box.width, box.height, alone.x, alone.y);
    await page.mouse.move(box.x + sx, box.y + sy);
    await page.locator('.map-tooltip').filter({ hasText: `${alone.artist} – ${alone.trackName}` }).waitFor();
    await page.mouse.click(box.x + sx, box.y + sy);

    const heading = page.getByRole('heading', { level: 2, name: new RegExp(`^${alone.trackName}`) });
    await heading.waitFor();
    expect(await page.getByRole('link', { name: 'Open the track’s page' }).getAttribute('href')).toBe(`/track/${alone.trackKey}`);
    const nearest = page.getByRole('list', { name: `Nearest by sound to ${alone.artist} – ${alone.trackName}` });
    await nearest.waitFor();
    const names = await nearest.getByRole('button').allInnerTexts();
    expect(names).toHaveLength(8);
    // Its nearest by sound are of its own cluster.
    for (const name of names) expect(name.startsWith(`${alone.artist} – `)).toBe(true);
    expectNoProblems();
  }, 60_000);

  it('draws a path between two tracks chosen from the list and lists its steps', async () => {
    const find = page.getByLabel('Find a track');
    await find.fill('Song A3');
    await page.getByRole('list', { name: 'Tracks found' }).getByRole('button', { name: 'Cluster A – Song A3' }).click();
    const heading = page.getByRole('heading', { level: 2, name: /^Song A3/ });
    await heading.waitFor();
    // Chosen from the list, the track's panel takes the focus.
    expect(await heading.evaluate((h) => h === (h.ownerDocument as unknown as { activeElement: unknown }).activeElement)).toBe(true);
    await frames();
    const before = (await canvasState()).image;
    await page.getByRole('button', { name: 'Path from here' }).click();

    await find.fill('Song C7');
    await page.getByRole('list', { name: 'Tracks found' }).getByRole('button', { name: 'Cluster C – Song C7' }).click();
    await page.getByRole('heading', { level: 2, name: /^Song C7/ }).waitFor();
    await page.getByRole('button', { name: 'Path to here' }).click();

    const steps = page.getByRole('list', { name: 'Path from Cluster A – Song A3 to Cluster C – Song C7' });
    await steps.waitFor();
    const tracks = await steps.getByRole('button').allInnerTexts();
    expect(tracks).toHaveLength(8 + 2);
    expect(tracks[0]).toBe('Cluster A – Song A3');
    expect(tracks[9]).toBe('Cluster C – Song C7');
    expect(new Set(tracks).size).toBe(10);
    await frames();
    // The path's line is drawn over the map.
    expect((await canvasState()).image).not.toBe(before);
    expectNoProblems();
  }, 60_000);

  it('lists the tracks as a table, reachable by keyboard, with no accessibility violation', async () => {
    await page.getByLabel('Find a track').fill('');
    const toggle = page.getByRole('button', { name: 'Show the tracks as a table' });
    await toggle.click();
    expect(await page.getByRole('button', { name: 'Hide the table' }).getAttribute('aria-expanded')).toBe('true');
    const table = page.getByRole('table', { name: /60 tracks, by artist/ });
    await table.waitFor();
    expect(await table.getByRole('row').count()).toBe(61);
    expect(await table.getByRole('row').nth(1).innerText()).toMatch(/^Cluster A – Song A\d+\t\d+\t\w+\trock$/);
    await table.getByRole('button', { name: 'Cluster B – Song B4' }).click();
    await page.getByRole('heading', { level: 2, name: /^Song B4/ }).waitFor();

    // The zoom and colour controls are reached with Tab.
    await page.getByLabel('Colour by').focus();
    const reached: string[] = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(`document.activeElement.getAttribute('aria-label') || document.activeElement.textContent`));
    }
    expect(reached.slice(0, 3)).toEqual(['Zoom in', 'Zoom out', 'Reset view']);
    expect(reached[3]).toMatch(/^Map of 60 tracks/);

    expect(await accessibilityViolations(page)).toEqual([]);
    // The screenshot: the whole map with a track chosen and the path drawn, the table closed.
    await page.getByRole('button', { name: 'Hide the table' }).click();
    await page.getByRole('button', { name: 'Reset view' }).click();
    await frames();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'map-desktop.png'), fullPage: true, animations: 'disabled' });
    await page.setViewportSize(PHONE);
    await frames();
    const scroll = await page.evaluate<{ scroll: number; inner: number }>(`({ scroll: document.documentElement.scrollWidth, inner: innerWidth })`);
    expect(scroll.scroll).toBeLessThanOrEqual(scroll.inner);
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    expectNoProblems();
  }, 60_000);
});
