import { createHmac } from 'node:crypto';
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { pino } from 'pino';
import { AppError } from '../../src/core/errors';
import { camelotKey, openKey } from '../../src/core/music';
import { trackKey } from '../../src/core/track-key';
import type { MetadataSource } from '../../src/sources/source';
import { createEnginePool } from '../../src/engine/engine.pool';
import { BrowseTracksDocument, TrackAnalysisDocument, TrackStatusDocument, TrackTempoInRangeDocument, VocabularyDocument, type TrackDetailFragment } from '../../web/src/gql/graphql';
import { variablesOfForm, EMPTY_FORM } from '../../web/src/browse/browse.filter';
import { encodeWav } from '../../measure/audio/audio-signals';
import { clickTrack, SAMPLE_RATE } from '../../measure/audio/signals';
import { accessibilityViolations, buildDashboard, CHROMIUM, SCREENSHOTS, hasChromium, launchBrowser, type Browser } from '../helpers/browser';
import { DEMO_TRACKS, writeDemoLibrary } from '../helpers/demo-library';
import { FakeEngine } from '../../measure/http/fake-engine';
import { GatedEngine } from '../helpers/gated-engine';
import { createTestApp, TEST_API_KEY, type TestApp } from '../helpers/test-app';
import { graphql } from '../integration/graphql/graphql.helpers';

/** What the server writes into artwork URLs; the browser reaches it at the test server. */
const PUBLIC_URL = 'http://trackgraph.test';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** A key of ADMIN_API_KEYS: it also manages keys, webhooks and usage. */
const ADMIN_KEY = 'admin-key-0123456789';

/** UPLOAD_MAX_BYTES of the test server: a file past it is refused with 413. */
const UPLOAD_MAX = 2 * 1024 * 1024;

/** The file the upload tests send: a 120 BPM click track, 8 s of 16-bit mono WAV (about 690 KiB). */
const CLICKS = Buffer.from(encodeWav([clickTrack({ bpm: 120, seconds: 8 })], SAMPLE_RATE));

/** The demo track the tests open while its analysis runs; the others are analysed beforehand. */
const OPENED = DEMO_TRACKS[0];

const describeInBrowser = hasChromium() ? describe : describe.skip;
const skipped = `SKIPPED: no browser at ${CHROMIUM} (\`apt-get install -y chromium\`, as .ci/run does)`;
const title = hasChromium() ? 'the web dashboard in Chromium' : `the web dashboard in Chromium (${skipped})`;
if (!hasChromium()) console.warn(`test/browser/dashboard.test.ts: ${skipped}`);

describeInBrowser(title, () => {
  let t: TestApp;
  let engine: GatedEngine;
  let dist: string;
  let browser: Browser;
  let page: Page;
  let origin: string;

  /** Analyses a track through the API and waits until it is stored. */
  async function analyse(artist: string, track: string): Promise<void> {
    const key = trackKey(artist, track);
    const first = await graphql(t, TrackAnalysisDocument, { trackKey: key, artist, track });
    expect(first.body.errors).toBeUndefined();
    for (let i = 0; i < 200 && !first.body.data?.analysis; i++) {
      const status = await graphql(t, TrackStatusDocument, { trackKey: key });
      if (status.body.data?.analysisStatus.status === 'DONE') return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function stored(artist: string, track: string): Promise<TrackDetailFragment> {
    const res = await graphql(t, TrackAnalysisDocument, { trackKey: trackKey(artist, track) });
    return res.body.data!.analysis!;
  }

  /** Fails with whatever the page logged as an error since the last call. */
  function expectNoProblems(): void {
    expect(browser.takeProblems()).toEqual([]);
  }

  async function screenshot(name: string): Promise<void> {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
  }

  /** Neither the page nor anything on it is wider than the window: nothing to scroll sideways. */
  async function expectNoSidewaysScroll(): Promise<void> {
    const { scroll, inner } = await page.evaluate(() => {
      const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
      return { scroll: w.document.documentElement.scrollWidth, inner: w.innerWidth };
    });
    expect(scroll).toBeLessThanOrEqual(inner);
  }

  /** Resizes the window and waits until the charts have drawn at their new width (two frames). */
  async function resize(size: { width: number; height: number }): Promise<void> {
    await page.setViewportSize(size);
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const w = globalThis as unknown as { requestAnimationFrame(f: () => void): void };
          w.requestAnimationFrame(() => w.requestAnimationFrame(resolve));
        }),
    );
  }

  async function signIn(): Promise<void> {
    await page.goto(`${origin}/`);
    await page.getByLabel('API key').fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
  }

  beforeAll(async () => {
    dist = await buildDashboard();
    engine = new GatedEngine(createEnginePool({ workers: 1, timeoutMs: 60_000, windowSeconds: 30, logger: pino({ level: 'silent' }) }));
    t = await createTestApp({
      engine,
      dashboardDir: dist,
      prepareLibrary: writeDemoLibrary,
      // Past this the API answers null and the page polls: the path of a long analysis.
      // OUTBOUND_ALLOW_PRIVATE: the webhook receiver listens on 127.0.0.1. RATE_LIMIT: one key
      // drives every page here, desktop and phone, within a minute or two (limits: test/integration).
      env: { RATE_LIMIT: '100000', ANALYSIS_WAIT_MS: '1000', PUBLIC_URL, ADMIN_API_KEYS: ADMIN_KEY, OUTBOUND_ALLOW_PRIVATE: 'true', UPLOAD_MAX_BYTES: String(UPLOAD_MAX) },
    });
    for (const track of DEMO_TRACKS.slice(1)) await analyse(track.artist, track.title);
    await analyse('Pink Floyd', 'Money');
    const { port } = await t.listen();
    origin = `http://127.0.0.1:${port}`;
    browser = await launchBrowser({ origin, aliasOrigin: PUBLIC_URL });
    page = browser.page;
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for an API key, refuses a wrong one with the reason, and keeps a good one for the tab', async () => {
    await resize(DESKTOP);
    await page.goto(`${origin}/browse`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot('sign-in-desktop');

    await page.getByLabel('API key').fill('not-a-key-of-this-server');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/^This key was refused: /);
    // The browser reports the refused request itself; nothing else went wrong.
    expect(browser.takeProblems()).toEqual(['console: Failed to load resource: the server responded with a status of 401 (Unauthorized)']);

    await page.getByLabel('API key').fill(TEST_API_KEY);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The page asked for opens once signed in.
    await page.getByRole('heading', { name: 'Browse' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('trackgraph.apiKey'))).toBe(TEST_API_KEY);

    await page.reload();
    await page.getByRole('heading', { name: 'Browse' }).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    expectNoProblems();
  }, 60_000);

  it('signs out: the key is forgotten and the sign-in form is back', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('trackgraph.apiKey'))).toBeNull();
    await signIn();
    expectNoProblems();
  }, 60_000);

  it('searches every enabled source and shows each result with its artwork', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('Money');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const result = page.getByRole('link', { name: /Money\s+Pink Floyd/ });
    await result.waitFor();
    expect(page.url()).toBe(`${origin}/?q=Money`);
    const artwork = result.locator('img');
    expect(await artwork.getAttribute('src')).toMatch(/^http:\/\/trackgraph\.test\/api\/audio\/artwork\/bc24aaa5a97c70ed\?sig=/);
    // Loaded and decoded: the server's signed artwork URL works in an <img> without a key.
    await artwork.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    expect(await artwork.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);

    // A track without a picture gets the server's placeholder for its key, which loads as well.
    await page.getByRole('searchbox', { name: 'Search' }).fill('Harbour');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const glass = page.getByRole('link', { name: /Glass Harbour\s+Northern Rooms/ });
    await glass.waitFor();
    const placeholder = glass.locator('img');
    expect(await placeholder.getAttribute('src')).toMatch(new RegExp(`/api/audio/artwork/${trackKey('Northern Rooms', 'Glass Harbour')}\\?sig=`));
    await placeholder.evaluate((img) => (img as unknown as { decode(): Promise<void> }).decode());
    expect(await placeholder.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(96);
    expect(await page.getByRole('status').first().innerText()).toMatch(/results? for “Harbour”/);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot('search-desktop');
    await resize(PHONE);
    await expectNoSidewaysScroll();
    await screenshot('search-phone');
    await resize(DESKTOP);
    expectNoProblems();
  }, 60_000);

  it('says which source could not be searched, beside what the others found', async () => {
    const found: MetadataSource = { name: 'library', search: async () => [{ artist: 'Pink Floyd', trackName: 'Money', source: 'library' }] };
    const down: MetadataSource = {
      name: 'deezer',
      search: async () => {
        throw new AppError('UPSTREAM_UNAVAILABLE', 'source deezer could not be reached');
      },
    };
    const degraded = await createTestApp({ engine: new FakeEngine(), dashboardDir: dist, sources: () => [down, found] });
    const at = `http://127.0.0.1:${(await degraded.listen()).port}`;
    const second = await launchBrowser({ origin: at, aliasOrigin: PUBLIC_URL });
    try {
      await second.page.goto(`${at}/`);
      await second.page.getByLabel('API key').fill(TEST_API_KEY);
      await second.page.getByRole('button', { name: 'Sign in' }).click();
      await second.page.getByRole('searchbox', { name: 'Search' }).fill('Money');
      await second.page.getByRole('button', { name: 'Search', exact: true }).click();
      await second.page.getByRole('link', { name: /Money\s+Pink Floyd/ }).waitFor();
      const warning = second.page.getByRole('alert', { name: 'Sources that could not be searched' });
      expect(await warning.innerText()).toMatch(/deezer: source deezer could not be reached \(UPSTREAM_UNAVAILABLE\)/);
      expect(await accessibilityViolations(second.page)).toEqual([]);
      expect(second.takeProblems()).toEqual([]);
    } finally {
      await second.close();
      await degraded.close();
    }
  }, 60_000);

  it('opens a track while it is analysed, shows where the analysis stands, then draws it', async () => {
    engine.hold();
    await page.goto(`${origin}/?q=${encodeURIComponent(OPENED.title)}`);
    const link = page.getByRole('link', { name: new RegExp(`${OPENED.title}\\s+${OPENED.artist}`) });
    // The API answers null once its wait is over; the page goes on asking analysisStatus.
    const gaveUpWaiting = page.waitForResponse(async (r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('"operationName":"TrackAnalysis"') && (await r.text()).includes('"analysis":null'));
    await link.click();
    expect(new URL(page.url()).pathname).toBe(`/track/${trackKey(OPENED.artist, OPENED.title)}`);
    const progress = page.getByRole('status').filter({ hasText: /Analysis queued|Analysing the audio/ });
    await progress.waitFor();
    await gaveUpWaiting;
    expect(await progress.isVisible()).toBe(true);
    engine.release();

    const descriptors = page.getByRole('img', { name: 'Descriptors' });
    await descriptors.waitFor({ timeout: 30_000 });
    const analysis = await stored(OPENED.artist, OPENED.title);
    // The page draws what the API computed from the audio.
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`${OPENED.title}\n${OPENED.artist}`);
    const stat = (name: string) => page.locator('.stat', { has: page.locator('dt', { hasText: name }) }).locator('.stat-value').innerText();
    expect(await stat('Tempo')).toBe(`${analysis.tempo.toFixed(1)} BPM`);
    expect(await stat('Key')).toBe(analysis.keyString);
    // Under it, the key in Camelot's and Open Key's notation, as DJ software shows it.
    const keyNote = page.locator('.stat', { has: page.locator('dt', { hasText: 'Key' }) }).locator('.stat-note');
    expect(await keyNote.innerText()).toBe(`Camelot ${camelotKey(analysis.key, analysis.mode)} · Open Key ${openKey(analysis.key, analysis.mode)}`);
    expect(await stat('Meter')).toBe(`${analysis.timeSignature}/4`);
    // How its moods were made, and by which engine build, as the API says.
    expect(analysis.method).toBe('signal');
    expect(await page.locator('.method').innerText()).toBe(`Moods, valence, danceability and instrumentalness by the engine's signal formulas · ${analysis.engine}`);
    // The signal formulas make no tags: the page lists none.
    expect(analysis.tags).toEqual([]);
    expect(await page.getByRole('heading', { name: 'Tags' }).count()).toBe(0);
    // A bar for every descriptor and mood the API lists (its registry), labelled as it labels them.
    const vocabulary = (await graphql(t, VocabularyDocument, {})).body.data!;
    const described = (group: string) =>
      vocabulary.descriptors
        .filter((d) => d.group === group)
        .map((d) => `${d.label} ${analysis.descriptorValues.find((v) => v.name === d.name)!.value.toFixed(2)}`)
        .join(', ');
    expect(await descriptors.locator('rect.bar').count()).toBe(vocabulary.descriptors.filter((d) => d.group === 'DESCRIPTOR').length);
    expect(await descriptors.locator('desc').textContent()).toContain(described('DESCRIPTOR'));
    const moods = page.getByRole('img', { name: 'Moods' });
    expect(await moods.locator('rect.bar').count()).toBe(vocabulary.descriptors.filter((d) => d.group === 'MOOD').length);
    expect(await moods.locator('desc').textContent()).toContain(described('MOOD'));

    // The timeline: as many sections, bars and beats as the analysis has, sections by keyboard.
    const { sections, bars, beats } = analysis.timeline;
    expect(sections.length).toBeGreaterThanOrEqual(1);
    const timeline = page.getByRole('group', { name: 'Timeline' });
    expect(await timeline.locator('g.section').count()).toBe(sections.length);
    expect(await timeline.locator('line.bar-line').count()).toBe(bars.length);
    expect(await timeline.locator('line.beat-line').count()).toBe(beats.length);
    await timeline.focus();
    const readout = page.locator('.readout');
    expect(await readout.innerText()).toMatch(new RegExp(`^Section 1 of ${sections.length}: 0:00 to `));
    await page.keyboard.press('End');
    expect(await readout.innerText()).toMatch(new RegExp(`^Section ${sections.length} of ${sections.length}: `));

    // Similar tracks: the others analysed beforehand, nearest first.
    const similar = page.getByRole('region', { name: 'Similar tracks' }).getByRole('link');
    await similar.first().waitFor();
    expect(await similar.count()).toBe(4);

    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot('track-desktop');
    await resize(PHONE);
    await expectNoSidewaysScroll();
    await screenshot('track-phone');
    await resize(DESKTOP);
    expectNoProblems();
  }, 90_000);

  it('counts the tempo in the BPM range a DJ gives, keeps the range for every track page, says what the API refuses and forgets it when cleared', async () => {
    const tempoNote = page.locator('.stat', { has: page.locator('dt', { hasText: 'Tempo' }) }).locator('.stat-note');
    const kept = () => page.evaluate(() => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem('trackgraph.bpmRange'));
    const open = async (artist: string, title: string) => {
      await page.goto(`${origin}/track/${trackKey(artist, title)}`);
      await page.getByRole('img', { name: 'Descriptors' }).waitFor({ timeout: 30_000 });
    };
    /** What the API counts in the range for a track: the note the page must show. */
    const counted = async (artist: string, title: string, min: number, max: number) => {
      const res = await graphql(t, TrackTempoInRangeDocument, { trackKey: trackKey(artist, title), min, max });
      const { tempo, confidence } = res.body.data!.analysis!.tempoInRange;
      expect(tempo).toBeGreaterThanOrEqual(min);
      expect(tempo).toBeLessThanOrEqual(max);
      return `${tempo.toFixed(1)} BPM in ${min}–${max} (confidence ${Math.round(confidence * 100)} %)`;
    };
    await open(OPENED.artist, OPENED.title);
    expect(await tempoNote.count()).toBe(0);
    const form = page.getByRole('form', { name: 'BPM range' });
    // An octave that does not hold the engine's own tempo: the count moves it into the range.
    const { tempo } = await stored(OPENED.artist, OPENED.title);
    const min = Math.round(tempo * 1.2);
    const max = 2 * min;
    await form.getByLabel('Lowest BPM').fill(String(min));
    await form.getByLabel('Highest BPM').fill(String(max));
    await form.getByRole('button', { name: 'Apply' }).click();
    await tempoNote.waitFor();
    expect(await tempoNote.innerText()).toBe(await counted(OPENED.artist, OPENED.title, min, max));
    expect(await kept()).toBe(`${min}-${max}`);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Kept in this browser: another track's page counts its tempo in the same range.
    const other = DEMO_TRACKS[1];
    await open(other.artist, other.title);
    await tempoNote.waitFor();
    expect(await tempoNote.innerText()).toBe(await counted(other.artist, other.title, min, max));

    // A range upside down: the API's refusal in words, the kept range untouched.
    const refusal = await graphql(t, TrackTempoInRangeDocument, { trackKey: trackKey(other.artist, other.title), min: max, max: min });
    const refusedMessage = refusal.body.errors?.[0]?.message;
    expect(refusedMessage).toMatch(/BPM range/);
    await form.getByLabel('Lowest BPM').fill(String(max));
    await form.getByLabel('Highest BPM').fill(String(min));
    await form.getByRole('button', { name: 'Apply' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toBe(refusedMessage);
    expect(await tempoNote.count()).toBe(0);
    expect(await kept()).toBe(`${min}-${max}`);
    // A tempo left out: said before anything is asked.
    await form.getByLabel('Highest BPM').fill('');
    await form.getByRole('button', { name: 'Apply' }).click();
    expect(await alert.innerText()).toBe('Give both tempi, the lower first (70 to 140).');

    await form.getByRole('button', { name: 'Clear' }).click();
    expect(await kept()).toBeNull();
    expect(await tempoNote.count()).toBe(0);
    expect(await form.getByRole('alert').count()).toBe(0);
    await page.reload();
    await page.getByRole('img', { name: 'Descriptors' }).waitFor();
    expect(await tempoNote.count()).toBe(0);
    expectNoProblems();
  }, 90_000);

  it('browses by mood, tempo and key: the list is what tracks(filter) answers, the filters are in the URL', async () => {
    await page.goto(`${origin}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Browse' }).click();
    await page.getByRole('heading', { name: 'Browse' }).waitFor();
    // A client-side navigation moves focus to the new page's heading, as a page load would.
    expect(await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string } | null } }).document.activeElement?.textContent)).toBe('Browse');
    await page.getByRole('status').filter({ hasText: '5 tracks match.' }).waitFor();

    const titles = () => page.getByRole('list', { name: 'Tracks' }).locator('.result-title').allInnerTexts();
    const expected = async (form: typeof EMPTY_FORM) => {
      const res = await graphql(t, BrowseTracksDocument, { ...variablesOfForm(form), first: 20 });
      return res.body.data!.tracks.edges.map((e) => e.node.trackName);
    };

    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('From').fill('100');
    await filters.getByLabel('Order by').selectOption('TEMPO');
    await filters.getByLabel('Direction').selectOption('ASC');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/tempoMin=100/);
    const fast = await expected({ ...EMPTY_FORM, tempoMin: '100', order: 'TEMPO', direction: 'ASC' });
    expect(fast.length).toBeGreaterThan(0);
    expect(fast.length).toBeLessThan(5);
    await page.getByRole('status').filter({ hasText: `${fast.length} track${fast.length === 1 ? '' : 's'} match.` }).waitFor();
    expect(await titles()).toEqual(fast);

    // A key of one of the analysed tracks, and a mood.
    const redLine = await stored('Static Engine', 'Red Line');
    const key = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'][redLine.key]!;
    await filters.getByLabel('From').fill('');
    await filters.getByRole('checkbox', { name: key, exact: true }).check();
    await filters.getByRole('combobox', { name: 'Mood', exact: true }).selectOption('aggressive');
    await filters.getByLabel('At least (0–1)').fill('0');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(new RegExp(`key=${redLine.key}(&|$)`));
    const keyed = await expected({ ...EMPTY_FORM, keys: [redLine.key], mood: 'aggressive', moodMin: '0', order: 'TEMPO', direction: 'ASC' });
    expect(keyed).toContain('Red Line');
    await page.getByRole('status').filter({ hasText: `${keyed.length} track${keyed.length === 1 ? '' : 's'} match.` }).waitFor();
    expect(await titles()).toEqual(keyed);

    // The URL holds the filters: reloading shows the same list.
    await page.reload();
    await page.getByRole('status').filter({ hasText: `${keyed.length} track` }).waitFor();
    expect(await titles()).toEqual(keyed);
    expect(await filters.getByRole('checkbox', { name: key, exact: true }).isChecked()).toBe(true);

    await filters.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('status').filter({ hasText: '5 tracks match.' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot('browse-desktop');
    await resize(PHONE);
    await expectNoSidewaysScroll();
    await screenshot('browse-phone');
    await resize(DESKTOP);
    expectNoProblems();
  }, 60_000);

  it('reaches every control by keyboard, with a visible focus ring, and follows a result with Enter', async () => {
    await page.goto(`${origin}/?q=Money`);
    await page.getByRole('link', { name: /Money\s+Pink Floyd/ }).waitFor();
    const visited: { name: string; outline: string }[] = [];
    // Tab from the top of the page until the result is focused.
    while (visited.length < 15 && !/^Money Pink Floyd/.test(visited.at(-1)?.name ?? '')) {
      await page.keyboard.press('Tab');
      visited.push(
        await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null; innerText: string; labels?: { textContent: string }[] } } }).document;
          const el = doc.activeElement;
          const style = (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } }).getComputedStyle(el);
          const name = el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? el.innerText.trim();
          return { name: name.replace(/\s+/g, ' '), outline: `${style.outlineStyle} ${style.outlineWidth}` };
        }),
      );
    }
    const names = visited.map((v) => v.name);
    for (const expected of ['Skip to content', 'trackgraph', 'Search', 'Browse', 'Sign out', 'Artist (optional)']) expect(names).toContain(expected);
    expect(names.at(-1)).toMatch(/^Money Pink Floyd/);
    for (const v of visited) expect(v.outline).toMatch(/^solid [1-9]/);

    await page.keyboard.press('Enter');
    await page.waitForURL(/\/track\/bc24aaa5a97c70ed\?/);
    await page.getByRole('img', { name: 'Descriptors' }).waitFor();
    expectNoProblems();
  }, 60_000);

  it('lists the auto-tagger’s ten most probable tags of an analysis the models made, most probable first; browse finds it by tag', async () => {
    // A stored analysis as the models would have made it: another track's, with the tagger's 50 tags.
    const made = (await t.container.store.get(trackKey(OPENED.artist, OPENED.title)))!;
    const names = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'female vocalists' : i === 1 ? 'Hip-Hop' : `tag ${i}`));
    const tags = names.map((name, i) => ({ name, probability: Math.round((0.9 - i * 0.017) * 1000) / 1000 }));
    const key = trackKey('Tagged Artist', 'Tagged Song');
    await t.container.store.save({ ...made, trackKey: key, artist: 'Tagged Artist', trackName: 'Tagged Song', features: { ...made.features, tags, engine: `${made.features.engine} models:musicnn-msd-2/r32` } });

    await page.goto(`${origin}/track/${key}`);
    const panel = page.getByRole('region', { name: 'Tags' });
    await panel.waitFor();
    expect(await page.locator('.method strong').innerText()).not.toBe("the engine's signal formulas");
    const items = await panel.getByRole('listitem').allInnerTexts();
    expect(items).toEqual(tags.slice(0, 10).map((tag) => `${tag.name} ${Math.round(tag.probability * 100)} %`));
    expect(await panel.locator('.tags-note').innerText()).toContain('10 most probable of its 50 tags');
    expect(await accessibilityViolations(page)).toEqual([]);

    // A tag the tagger gives links to browse by it, the most probable first (the others are
    // text); browse finds the track by that tag among its two most probable, and not among its one.
    expect(await panel.getByRole('link').allInnerTexts()).toEqual(['female vocalists', 'Hip-Hop']);
    await panel.getByRole('link', { name: 'Hip-Hop' }).click();
    await page.waitForURL(/\/browse\?tag=Hip-Hop&tagTop=3&order=TAG$/);
    await page.getByRole('status').filter({ hasText: '1 track match.' }).waitFor();
    const filters = page.getByRole('form', { name: 'Filters' });
    expect(await filters.getByRole('combobox', { name: 'Tag', exact: true }).inputValue()).toBe('Hip-Hop');
    expect(await filters.getByRole('combobox', { name: 'Order by' }).inputValue()).toBe('TAG');
    await filters.getByLabel('Among its top (1–50)').fill('2');
    // The answer to top 2 counts as many as the one to top 3 before it: wait for that answer itself.
    const topTwo = page.waitForResponse((r) => r.url() === `${origin}/graphql` && /"top":2\b/.test(r.request().postData() ?? ''));
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/tag=Hip-Hop&tagTop=2/);
    await topTwo;
    const listed = page.getByRole('list', { name: 'Tracks' }).locator('.result-title');
    await listed.filter({ hasText: 'Tagged Song' }).waitFor();
    await page.getByRole('status').filter({ hasText: '1 track match.' }).waitFor();
    expect(await listed.allInnerTexts()).toEqual(['Tagged Song']);
    await filters.getByLabel('Among its top (1–50)').fill('1');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/tagTop=1/);
    await page.getByRole('status').filter({ hasText: '0 tracks match.' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    // Ordered by the tag's probability: another track with Hip-Hop more probable comes first,
    // and last the other way. The order is offered only once a tag is chosen.
    const again = tags.map((tag) => (tag.name === 'Hip-Hop' ? { ...tag, probability: 0.95 } : tag)).sort((a, b) => b.probability - a.probability);
    await t.container.store.save({ ...made, trackKey: trackKey('Tagged Artist', 'Tagged Again'), artist: 'Tagged Artist', trackName: 'Tagged Again', features: { ...made.features, tags: again, engine: `${made.features.engine} models:musicnn-msd-2/r32` } });
    const order = filters.getByRole('combobox', { name: 'Order by' });
    await filters.getByLabel('Among its top (1–50)').fill('3');
    expect(await order.locator('option:checked').innerText()).toBe('Probability of “Hip-Hop”');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/tag=Hip-Hop&tagTop=3&order=TAG$/);
    await page.getByRole('status').filter({ hasText: '2 tracks match.' }).waitFor();
    await listed.filter({ hasText: 'Tagged Again' }).waitFor();
    expect(await listed.allInnerTexts()).toEqual(['Tagged Again', 'Tagged Song']);
    await filters.getByRole('combobox', { name: 'Direction' }).selectOption('ASC');
    const ascending = page.waitForResponse((r) => r.url() === `${origin}/graphql` && /"field":"TAG"[^}]*"direction":"ASC"|"direction":"ASC"[^}]*"field":"TAG"/.test(r.request().postData() ?? ''));
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/order=TAG&dir=ASC$/);
    await ascending;
    await listed.first().filter({ hasText: 'Tagged Song' }).waitFor();
    expect(await listed.allInnerTexts()).toEqual(['Tagged Song', 'Tagged Again']);
    await filters.getByRole('combobox', { name: 'Tag', exact: true }).selectOption('');
    expect(await order.locator('option[value="TAG"]').isDisabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await resize(PHONE);
    await expectNoSidewaysScroll();
    await resize(DESKTOP);
    expectNoProblems();
  }, 60_000);

  /** The stat a track page shows under `name` (Tempo, Key …). */
  const stat = (name: string) => page.locator('.stat', { has: page.locator('dt', { hasText: name }) }).locator('.stat-value').innerText();
  const isUpload = (r: { url(): string; request(): { method(): string } }) => r.url() === `${origin}/api/audio/analyses` && r.request().method() === 'POST';

  it('analyses a file the user sends: the progress of its upload, then the analysis as it runs, then the track page', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    // What browse lists before: the page keeps it, and must not show it stale after the upload.
    await page.goto(`${origin}/browse`);
    const matching = page.getByRole('status').filter({ hasText: /^\d+ tracks match\.$/ });
    await matching.waitFor();
    const before = Number((await matching.innerText()).split(' ')[0]);
    await nav.getByRole('link', { name: 'Analyse a file' }).click();
    await page.getByRole('heading', { name: 'Analyse a file', level: 1 }).waitFor();
    expect(await page.getByRole('button', { name: 'Analyse', exact: true }).isDisabled()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);

    engine.hold();
    await page.getByLabel('Audio file').setInputFiles({ name: 'click-120.wav', mimeType: 'audio/wav', buffer: CLICKS });
    expect(await page.locator('.chosen-file').innerText()).toMatch(/^click-120\.wav · \d+ KiB$/);
    await page.getByLabel('Artist (optional)').fill('Click Band');
    await page.getByLabel('Track (optional)').fill('Metronome');
    const answered = page.waitForResponse(isUpload);
    await page.getByRole('button', { name: 'Analyse', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Upload progress' });
    await bar.waitFor();
    // Every byte sent: the bar is full while the server analyses (the engine is held).
    await page.locator('[role="progressbar"][aria-valuenow="100"]').waitFor();
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^100 % \(\d+ KiB of \d+ KiB\)$/);
    const upload = await answered;
    // Past the server's wait (ANALYSIS_WAIT_MS): 202, and the page asks the Location until it is done.
    expect(upload.status()).toBe(202);
    expect(await upload.request().headerValue('authorization')).toBe(`Bearer ${TEST_API_KEY}`);
    const key = trackKey('Click Band', 'Metronome');
    expect(await upload.headerValue('location')).toBe(`/api/audio/analysis/${key}`);
    const polled = page.waitForResponse((r) => r.url() === `${origin}/api/audio/analysis/${key}` && r.status() === 202);
    const progress = page.getByRole('status').filter({ hasText: /Analysis queued|Analysing the audio/ });
    await progress.waitFor();
    await polled;
    expect(await page.getByRole('button', { name: 'Analyse', exact: true }).isDisabled()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/analyse');
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot('analyse-desktop');
    await resize(PHONE);
    await expectNoSidewaysScroll();
    await screenshot('analyse-phone');
    await resize(DESKTOP);
    engine.release();

    await page.waitForURL((url) => url.pathname === `/track/${key}`, { timeout: 30_000 });
    await page.getByRole('img', { name: 'Descriptors' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Metronome\nClick Band');
    const analysis = await stored('Click Band', 'Metronome');
    expect(Math.abs(analysis.tempo - 120)).toBeLessThan(2);
    expect(await stat('Tempo')).toBe(`${analysis.tempo.toFixed(1)} BPM`);

    await nav.getByRole('link', { name: 'Browse' }).click();
    await page.getByRole('status').filter({ hasText: `${before + 1} tracks match.` }).waitFor();
    expect(await page.getByRole('list', { name: 'Tracks' }).locator('.result-title').allInnerTexts()).toContain('Metronome');
    expectNoProblems();
  }, 90_000);

  it('takes a file dropped on the page; the same bytes as before are answered at once, under their file name, on their own track page', async () => {
    await page.goto(`${origin}/analyse`);
    // A drop as the browser delivers it: a DataTransfer holding the file, made in the page.
    const dataTransfer = await page.evaluateHandle((base64) => {
      const w = globalThis as unknown as {
        atob(s: string): string;
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
      };
      const binary = w.atob(base64);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      const transfer = new w.DataTransfer();
      transfer.items.add(new w.File([bytes], 'Tick Tock - Steady.wav', { type: 'audio/wav' }));
      return transfer;
    }, CLICKS.toString('base64'));
    const zone = page.locator('.drop-zone');
    await zone.dispatchEvent('dragover', { dataTransfer });
    expect(await zone.getAttribute('class')).toBe('drop-zone dragging');
    await zone.dispatchEvent('drop', { dataTransfer });
    expect(await zone.getAttribute('class')).toBe('drop-zone');
    // The file input holds the dropped file, as if it had been chosen.
    expect(await page.getByLabel('Audio file').evaluate((input) => (input as unknown as { files: { name: string }[] }).files[0]?.name)).toBe('Tick Tock - Steady.wav');
    expect(await page.locator('.chosen-file').innerText()).toMatch(/^Tick Tock - Steady\.wav · \d+ KiB$/);
    const answered = page.waitForResponse(isUpload);
    await page.getByRole('button', { name: 'Analyse', exact: true }).click();
    expect((await answered).status()).toBe(200);
    // Named by the file name, as the server names a file without fields or tags.
    const key = trackKey('Tick Tock', 'Steady');
    await page.waitForURL((url) => url.pathname === `/track/${key}`);
    await page.getByRole('img', { name: 'Descriptors' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Steady\nTick Tock');
    const before = await stored('Click Band', 'Metronome');
    expect(await stat('Tempo')).toBe(`${before.tempo.toFixed(1)} BPM`);
    expectNoProblems();
  }, 60_000);

  it('says in words why a file was refused (not audio, too large) and stays on the page, ready for another', async () => {
    await page.goto(`${origin}/analyse`);
    const analyseButton = page.getByRole('button', { name: 'Analyse', exact: true });
    // Text named .mp3: the server recognises audio by its bytes.
    await page.getByLabel('Audio file').setInputFiles({ name: 'notes.mp3', mimeType: 'audio/mpeg', buffer: Buffer.from('these are notes, not a song\n'.repeat(64)) });
    // By keyboard: from the file input, Tab reaches the names, then the button, which Enter presses.
    await page.getByLabel('Audio file').focus();
    const reached: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const el = (globalThis as unknown as { document: { activeElement: { innerText: string; labels?: { textContent: string }[] } } }).document.activeElement;
          return el.labels?.[0]?.textContent ?? el.innerText;
        }),
      );
    }
    expect(reached).toEqual(['Artist (optional)', 'Track (optional)', 'Analyse']);
    let answered = page.waitForResponse(isUpload);
    await page.keyboard.press('Enter');
    expect((await answered).status()).toBe(415);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/^This file is not audio the server can read \(.*\): the upload is not audio this server reads .*\(UNSUPPORTED_MEDIA\)$/);
    expect(new URL(page.url()).pathname).toBe('/analyse');
    expect(await analyseButton.isEnabled()).toBe(true);
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(browser.takeProblems()).toEqual(['console: Failed to load resource: the server responded with a status of 415 (Unsupported Media Type)']);

    // Past UPLOAD_MAX_BYTES: the limit, in words, every time (the server reads on past its
    // answer, so that the browser, still sending, reads the refusal rather than a reset).
    // One file on disk under 20 names (hard links): the browser is handed a path, not 3 MiB of
    // bytes through the DevTools protocol each time (about 2 s a try that way).
    const large = Buffer.concat([CLICKS, Buffer.alloc(UPLOAD_MAX + 1024 * 1024 - CLICKS.length)]);
    const files = await mkdtemp(path.join(os.tmpdir(), 'trackgraph-large-'));
    await writeFile(path.join(files, 'large-0.wav'), large);
    for (let i = 1; i < 20; i++) await link(path.join(files, 'large-0.wav'), path.join(files, `large-${i}.wav`));
    const refusals: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        await page.getByLabel('Audio file').setInputFiles(path.join(files, `large-${i}.wav`));
        // Choosing another file clears the last refusal.
        expect(await page.getByRole('alert').count()).toBe(0);
        answered = page.waitForResponse(isUpload);
        await analyseButton.click();
        refusals.push((await answered).status());
        await alert.waitFor();
        expect(await alert.innerText()).toBe('This file is too large: the server accepts files of up to 2 MiB. (PAYLOAD_TOO_LARGE)');
        expect(new URL(page.url()).pathname).toBe('/analyse');
        expect(await analyseButton.isEnabled()).toBe(true);
      }
    } finally {
      await rm(files, { recursive: true, force: true });
    }
    expect(refusals).toEqual(Array(20).fill(413));
    expect(browser.takeProblems()).toEqual(Array(20).fill('console: Failed to load resource: the server responded with a status of 413 (Payload Too Large)'));

    // And the next file goes through.
    await page.getByLabel('Audio file').setInputFiles({ name: 'again.wav', mimeType: 'audio/wav', buffer: CLICKS });
    await page.getByLabel('Artist (optional)').fill('Click Band');
    await page.getByLabel('Track (optional)').fill('Metronome');
    await analyseButton.click();
    await page.waitForURL((url) => url.pathname === `/track/${trackKey('Click Band', 'Metronome')}`);
    await page.getByRole('img', { name: 'Descriptors' }).waitFor();
    expectNoProblems();
  }, 60_000);

  it('shows the upload as it goes, and Cancel upload stops it: the page stays, ready, and nothing is left on the server', async () => {
    await page.goto(`${origin}/analyse`);
    // A slow connection (DevTools' throttling, upload included): the upload takes seconds.
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 128 * 1024 });
    try {
      const slow = Buffer.from(encodeWav([clickTrack({ bpm: 90, seconds: 20 })], SAMPLE_RATE));
      await page.getByLabel('Audio file').setInputFiles({ name: 'slow.wav', mimeType: 'audio/wav', buffer: slow });
      await page.getByRole('button', { name: 'Analyse', exact: true }).click();
      // Part of the way: more than nothing, less than all.
      await page.waitForFunction(() => {
        const bar = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(n: string): string | null } | null } }).document.querySelector('[role="progressbar"]');
        const now = Number(bar?.getAttribute('aria-valuenow') ?? 0);
        return now > 0 && now < 100;
      });
      expect(await page.getByRole('progressbar', { name: 'Upload progress' }).getAttribute('aria-valuetext')).toMatch(/^\d+ % \(\d+(\.\d)? KiB of 1\.7 MiB\)$/);
      await page.getByRole('button', { name: 'Cancel upload' }).click();
      await page.getByRole('status').filter({ hasText: 'The upload was cancelled.' }).waitFor();
    } finally {
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await cdp.detach();
    }
    expect(await page.getByRole('progressbar').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/analyse');
    expect(await page.getByRole('button', { name: 'Analyse', exact: true }).isEnabled()).toBe(true);
    // The server dropped what it had received of it.
    const uploads = path.join(t.dir, 'data', 'uploads');
    for (let i = 0; i < 100 && (await readdir(uploads)).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await readdir(uploads)).toEqual([]);
    expectNoProblems();
  }, 60_000);

  it('stops waiting for a long analysis when asked: the analysis goes on, and its track page shows it when done', async () => {
    await page.goto(`${origin}/analyse`);
    engine.hold();
    try {
      const other = Buffer.from(encodeWav([clickTrack({ bpm: 100, seconds: 6 })], SAMPLE_RATE));
      await page.getByLabel('Audio file').setInputFiles({ name: 'click-100.wav', mimeType: 'audio/wav', buffer: other });
      await page.getByLabel('Artist (optional)').fill('Click Band');
      await page.getByLabel('Track (optional)').fill('Slower');
      const answered = page.waitForResponse(isUpload);
      await page.getByRole('button', { name: 'Analyse', exact: true }).click();
      expect((await answered).status()).toBe(202);
      await page.getByRole('button', { name: 'Stop waiting' }).click();
      await page.getByRole('status').filter({ hasText: 'Stopped waiting; the analysis goes on on the server.' }).waitFor();
      expect(await page.getByRole('button', { name: 'Analyse', exact: true }).isEnabled()).toBe(true);
      await page.getByRole('link', { name: "Open the track's page" }).click();
      const key = trackKey('Click Band', 'Slower');
      await page.waitForURL((url) => url.pathname === `/track/${key}`);
      await page.getByRole('status').filter({ hasText: /Analysis queued|Analysing the audio/ }).waitFor();
    } finally {
      engine.release();
    }
    await page.getByRole('img', { name: 'Descriptors' }).waitFor({ timeout: 30_000 });
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Slower\nClick Band');
    expectNoProblems();
  }, 60_000);

  it('lists similar tracks of other artists only when asked: the track\'s own artist, however spelt, left out', async () => {
    // A song of the opened track's artist, spelt otherwise, with the opened track's own features: among the nearest.
    const made = (await t.container.store.get(trackKey(OPENED.artist, OPENED.title)))!;
    const twinArtist = OPENED.artist.toUpperCase();
    await t.container.store.save({ ...made, trackKey: trackKey(twinArtist, 'Twin Take'), artist: twinArtist, trackName: 'Twin Take' });
    await page.goto(`${origin}/track/${made.trackKey}`);
    const panel = page.getByRole('region', { name: 'Similar tracks' });
    const links = panel.getByRole('link');
    await panel.getByRole('link', { name: /Twin Take/ }).waitFor();
    const everyone = await links.allInnerTexts();

    await panel.getByRole('checkbox', { name: 'Other artists only' }).check();
    // The list goes while the new one is asked for, and comes back whole.
    await panel.getByRole('link', { name: /Twin Take/ }).waitFor({ state: 'detached' });
    await links.nth(everyone.length - 1).waitFor();
    const others = await links.allInnerTexts();
    // The same ranking with the artist's songs taken out: the twin, and any other song of the artist the library holds.
    const byArtist = (text: string) => text.trim().toLowerCase().endsWith(OPENED.artist.toLowerCase());
    const kept = everyone.filter((text) => !byArtist(text));
    expect(kept.length).toBeLessThan(everyone.length);
    // As many as before (the library has enough), those kept first in their order, then the next of other artists.
    expect(others).toHaveLength(everyone.length);
    expect(others.slice(0, kept.length)).toEqual(kept);
    expect(others.filter(byArtist)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);

    await panel.getByRole('checkbox', { name: 'Other artists only' }).uncheck();
    await panel.getByRole('link', { name: /Twin Take/ }).waitFor();
    expectNoProblems();
  }, 60_000);

  it('shows a read key its own webhooks and usage but not the key pages', async () => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Usage' }).waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Search', 'Browse', 'Map', 'Analyse a file', 'Webhooks', 'Usage']);
    await page.goto(`${origin}/admin/keys`);
    await page.getByText('This page needs an admin key; the key you signed in with is a read key.').waitFor();
    expectNoProblems();
  }, 30_000);

  describe('with an admin key', () => {
    let receiver: Server;
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];

    beforeAll(async () => {
      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200).end('ok');
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      if (receiver) await new Promise((resolve) => receiver.close(resolve));
    });

    it('signs in with an admin key and sees the admin pages', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').fill(ADMIN_KEY);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Keys' }).waitFor();
      expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Search', 'Browse', 'Map', 'Analyse a file', 'Keys', 'Webhooks', 'Usage']);
      expectNoProblems();
    }, 30_000);

    it('creates a key with an expiry, shows it once, and revokes it: the API refuses it at once', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
      await page.getByRole('heading', { name: 'Keys', level: 1 }).waitFor();
      const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
      await page.getByLabel('Name').fill('browser-made');
      await page.getByLabel('Expires on (optional, UTC)').fill(nextYear);
      await page.getByRole('button', { name: 'Create key' }).click();
      const secret = page.locator('.secret-value');
      await secret.waitFor();
      const key = (await secret.innerText()).trim();
      await request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${key}`).expect(200);

      const row = page.getByRole('row', { name: /browser-made/ });
      await row.waitFor();
      expect(await row.innerText()).toContain('read');
      await screenshot('keys-desktop');
      await resize(PHONE);
      await screenshot('keys-phone');
      await resize(DESKTOP);
      await page.getByRole('button', { name: 'Done' }).click();
      expect(await page.locator('.secret-value').count()).toBe(0);

      await row.getByRole('button', { name: 'Revoke browser-made' }).click();
      await row.getByRole('button', { name: 'Revoke now “browser-made”' }).click();
      await row.getByText(/^revoked /).waitFor();
      await request(t.app).get('/api/audio/search?track=Money').set('Authorization', `Bearer ${key}`).expect(401);
      expect(await accessibilityViolations(page)).toEqual([]);
      expectNoProblems();
    }, 60_000);

    it('adds a webhook (its secret shown once), sends a test event and shows the delivery in the log', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/trackgraph`;
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      const secretText = page.locator('.secret-value');
      await secretText.waitFor();
      const secret = (await secretText.innerText()).trim();
      expect(secret).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'Done' }).click();

      await page.getByRole('button', { name: `Send test to ${url}` }).click();
      const delivery = page.getByRole('row', { name: /webhook\.test/ });
      await delivery.getByText('succeeded').waitFor({ timeout: 30_000 });
      expect(await delivery.innerText()).toMatch(/\b200\b/);

      // What the receiver got verifies as Standard Webhooks says, with the secret shown once.
      const test = received.find((r) => r.body.includes('"webhook.test"'));
      expect(test).toBeDefined();
      const id = String(test!.headers['webhook-id']);
      const timestamp = String(test!.headers['webhook-timestamp']);
      const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.${test!.body}`).digest('base64');
      expect(String(test!.headers['webhook-signature']).split(' ')).toContain(`v1,${signature}`);

      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot('webhooks-desktop');
      await resize(PHONE);
      await expectNoSidewaysScroll();
      await screenshot('webhooks-phone');
      await resize(DESKTOP);
      expectNoProblems();
    }, 60_000);

    it('draws usage per key per day', async () => {
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Usage' }).click();
      await page.getByRole('heading', { name: 'Usage', level: 1 }).waitFor();
      const chart = page.getByRole('img', { name: /^ADMIN_API_KEYS / });
      await chart.waitFor();
      expect(await chart.locator('desc').textContent()).toMatch(/^[1-9]\d* requests and \d+ analyses over 30 days/);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot('usage-desktop');
      await resize(PHONE);
      await expectNoSidewaysScroll();
      await screenshot('usage-phone');
      await resize(DESKTOP);
      expectNoProblems();
    }, 60_000);
  });
});
