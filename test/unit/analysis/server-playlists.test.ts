import { PlaylistService, checkedServerPlaylistName } from '../../../src/analysis/playlists.service';
import type { SourceTrack, SourceTrackStore } from '../../../src/analysis/store/source-tracks.store';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import type { StoredAnalysis, TrackMetadata } from '../../../src/core/types';
import type { MusicServerSource, SavedServerPlaylist } from '../../../src/sources/source';
import { analysisOf } from '../../integration/browse/browse.suite';

/* Playlists saved into a music server: which song each stored track is, what is skipped, what is kept. */

class MemorySongs implements SourceTrackStore {
  readonly rows = new Map<string, SourceTrack>();
  put(tracks: readonly SourceTrack[]): Promise<void> {
    for (const t of tracks) this.rows.set(t.sourceId, { ...t, version: t.version ?? null });
    return Promise.resolve();
  }
  byIds(_source: string, ids: readonly string[]): Promise<Map<string, SourceTrack>> {
    return Promise.resolve(new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!] as const] : []))));
  }
  byTrackKeys(_source: string, keys: readonly string[]): Promise<Map<string, SourceTrack>> {
    return Promise.resolve(new Map([...this.rows.values()].filter((r) => keys.includes(r.trackKey)).map((r) => [r.trackKey, r])));
  }
  remove(): Promise<void> {
    return Promise.resolve();
  }
}

/** A server holding songs by name ("artist - title" → id), recording what it was asked. */
class FakeServer implements MusicServerSource {
  readonly name = 'subsonic';
  readonly lookups: string[] = [];
  saved: { name: string; ids: readonly string[] }[] = [];
  constructor(private readonly byName: Record<string, string>) {}
  connect(): Promise<void> {
    return Promise.resolve();
  }
  /** Not walked here. */
  songs(): AsyncIterable<never> {
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true as const, value: undefined as never }) }) };
  }
  findSong(track: TrackMetadata, _context: unknown, options?: { strict?: boolean }): Promise<string | undefined> {
    expect(options?.strict).toBe(true);
    this.lookups.push(track.trackName);
    return Promise.resolve(this.byName[`${track.artist} - ${track.trackName}`]);
  }
  savePlaylist(name: string, ids: readonly string[]): Promise<SavedServerPlaylist> {
    const replaced = this.saved.some((p) => p.name === name);
    this.saved.push({ name, ids });
    return Promise.resolve({ playlistId: 'pl-1', replaced });
  }
}

const stored = new Map<string, StoredAnalysis>();
const store = { getMany: (keys: readonly string[]) => Promise.resolve(new Map(keys.flatMap((k) => (stored.has(k) ? [[k, stored.get(k)!] as const] : [])))) } as unknown as AnalysisStore;
const track = (artist: string, title: string): StoredAnalysis => {
  const a = analysisOf(artist, title);
  stored.set(a.trackKey, a);
  return a;
};

describe('playlists saved into the music server', () => {
  const kept = track('Pink Floyd', 'Money');
  const looked = track('Northern Rooms', 'Aurora Drive');
  const absent = track('Nobody', 'Nowhere');

  it('takes the song id kept with an analysis, looks the others up by name (and keeps what it found), skips and counts what the server lacks', async () => {
    const songs = new MemorySongs();
    await songs.put([{ source: 'subsonic', sourceId: 'id-money', trackKey: kept.trackKey, version: 'v1' }]);
    const server = new FakeServer({ 'Northern Rooms - Aurora Drive': 'id-aurora' });
    const service = new PlaylistService(store, () => undefined, '/music', undefined, { server: (name) => (name === 'subsonic' ? server : undefined), songs, timeoutMs: 5000 });
    const unknownKey = 'ffffffffffffffff';
    const saved = await service.save('  Late night  ', [looked.trackKey, kept.trackKey, absent.trackKey, unknownKey], 'subsonic');
    expect(saved).toEqual({ target: 'subsonic', name: 'Late night', playlistId: 'pl-1', listed: 2, skipped: 2, replaced: false });
    expect(server.saved).toEqual([{ name: 'Late night', ids: ['id-aurora', 'id-money'] }]);
    expect(server.lookups.sort()).toEqual(['Aurora Drive', 'Nowhere']);
    expect(songs.rows.get('id-aurora')).toEqual({ source: 'subsonic', sourceId: 'id-aurora', trackKey: looked.trackKey, version: null });
    // The song found is kept: the next save asks the server for none but the absent one.
    server.lookups.length = 0;
    await expect(service.save('Late night', [looked.trackKey, absent.trackKey], 'subsonic')).resolves.toMatchObject({ listed: 1, skipped: 1, replaced: true });
    expect(server.lookups).toEqual(['Nowhere']);
  });

  it('when the server is not enabled, says how to enable it (INVALID_ARGUMENT)', async () => {
    const service = new PlaylistService(store, () => undefined, '/music', undefined, { server: () => undefined, songs: new MemorySongs(), timeoutMs: 5000 });
    await expect(service.save('x', [kept.trackKey], 'subsonic')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('SUBSONIC_URL') });
  });

  it('a name on the server: 1–100 characters without control characters (slashes and the like allowed)', () => {
    expect(checkedServerPlaylistName('  AC/DC: best?  ')).toBe('AC/DC: best?');
    for (const bad of ['', '  ', 'tab\there', 'x'.repeat(101), 7]) expect(() => checkedServerPlaylistName(bad)).toThrow(/name must be 1 to 100 characters/);
  });
});
