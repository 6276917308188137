import type { StoredAnalysis, TrackCandidate } from '../../../src/core/types';
import { checkAnalysis, checkAudioRef, checkCandidate, checkCandidates } from '../../../src/sources/source.validation';
import { featuresFromBytes } from '../../../measure/http/fake-engine';

const money: TrackCandidate = {
  artist: 'Pink Floyd',
  trackName: 'Money',
  album: 'The Dark Side of the Moon',
  durationMs: 382_813,
  thumbnailUrl: 'https://cdn-images.dzcdn.net/images/cover/250x250.jpg',
  isrc: 'GBN9Y1100088',
  source: 'deezer',
  sourceId: '1152182',
  sourceScore: 0.9,
  audio: { source: 'deezer', locator: '1152182', url: 'https://cdnt-preview.dzcdn.net/api/1/1/a.mp3' },
};

describe('checkCandidate', () => {
  it('keeps a well-formed candidate as it is', () => {
    expect(checkCandidate(money)).toEqual({ ok: true, candidate: money, dropped: [] });
  });

  it.each([
    'javascript:alert(document.cookie)',
    'JaVaScRiPt:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    '//evil.example/cover.jpg',
    'not a url',
    `https://cdn.example/${'a'.repeat(3000)}`,
  ])('drops a thumbnailUrl %j that is not an http(s) URL, and keeps the record', (thumbnailUrl) => {
    const checked = checkCandidate({ ...money, thumbnailUrl });
    expect(checked).toMatchObject({ ok: true, dropped: ['thumbnailUrl'] });
    expect(checked.ok && 'thumbnailUrl' in checked.candidate).toBe(false);
    expect(checked.ok && checked.candidate.trackName).toBe('Money');
  });

  it('drops a preview URL that is not http(s) but keeps the audio reference (the source resolves it afresh)', () => {
    const checked = checkCandidate({ ...money, audio: { source: 'deezer', locator: '1152182', url: 'javascript:alert(1)' } });
    expect(checked).toMatchObject({ ok: true, candidate: { audio: { source: 'deezer', locator: '1152182' } }, dropped: ['audio.url'] });
    expect(checked.ok && checked.candidate.audio?.url).toBeUndefined();
  });

  it.each([
    ['durationMs', -1],
    ['durationMs', Number.NaN],
    ['durationMs', 1e300],
    ['sourceScore', 7],
    ['isrc', '<script>'],
    ['album', 'x'.repeat(5000)],
  ] as const)('drops an optional %s of %p', (field, value) => {
    expect(checkCandidate({ ...money, [field]: value })).toMatchObject({ ok: true, dropped: [field] });
  });

  it.each([
    ['a blank artist', { artist: '   ' }],
    ['an over-long title', { trackName: 'x'.repeat(5000) }],
    ['a title with control characters', { trackName: 'Money\u001b[31m' }],
    ['an artist that is not a string', { artist: 42 as unknown as string }],
  ])('refuses a candidate with %s', (_label, change) => {
    expect(checkCandidate({ ...money, ...change })).toMatchObject({ ok: false, problem: expect.any(String) });
  });

  it('never carries fields a source added beyond the candidate', () => {
    const checked = checkCandidate({ ...money, secret: 'x' } as TrackCandidate);
    expect(checked.ok && 'secret' in checked.candidate).toBe(false);
  });
});

describe('checkCandidates', () => {
  it('leaves refused candidates out and says why', () => {
    const out = checkCandidates([money, { ...money, artist: '' }, { ...money, thumbnailUrl: 'data:,x' }]);
    expect(out.candidates).toHaveLength(2);
    expect(out.refused).toEqual([expect.stringContaining('artist')]);
    expect(out.dropped).toEqual(['thumbnailUrl']);
  });
});

describe('checkAudioRef', () => {
  it('drops a reference without a usable locator', () => {
    expect(checkAudioRef({ source: 'deezer', locator: '' })).toEqual({ dropped: ['audio'] });
  });
});

describe('checkAnalysis', () => {
  const stored = (): StoredAnalysis => ({
    trackKey: 'bc24aaa5a97c70ed',
    artist: 'Pink Floyd',
    trackName: 'Money',
    features: featuresFromBytes(new Uint8Array([1, 2, 3])),
    analysedAt: '2026-11-23T10:00:00.000Z',
    source: 'upstream',
  });

  it('passes an analysis within the ranges', () => {
    const a = stored();
    expect(checkAnalysis('upstream', a)).toBe(a);
  });

  it.each([
    ['tempo', (a: StoredAnalysis) => (a.features.tempo = -1e300)],
    ['energy', (a: StoredAnalysis) => (a.features.energy = 1e300)],
    ['timeSignature', (a: StoredAnalysis) => (a.features.timeSignature = -7)],
    ['loudness', (a: StoredAnalysis) => (a.features.loudness = Number.NaN)],
    ['timeline', (a: StoredAnalysis) => (a.features.timeline.beats[0]!.confidence = 5)],
    ['engine', (a: StoredAnalysis) => (a.features.engine = '')],
  ])('refuses an analysis whose %s is out of range, as UPSTREAM_INVALID naming the field', (field, spoil) => {
    const a = stored();
    spoil(a);
    expect(() => checkAnalysis('upstream', a)).toThrow(expect.objectContaining({ code: 'UPSTREAM_INVALID', message: expect.stringContaining(field) }));
  });
});
