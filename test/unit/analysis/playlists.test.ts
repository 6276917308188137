import { PlaylistService, checkedPlaylistName } from '../../../src/analysis/playlists.service';
import type { AnalysisStore } from '../../../src/analysis/store/store';
import type { StoredAnalysis } from '../../../src/core/types';
import { analysisOf } from '../../integration/browse/browse.suite';

/* M3U8 of the music folder's files: each line's form, the path prefix a player sees, and names that must not break a line. */

const files = new Map<string, string>();
const service = (prefix?: string) => new PlaylistService({} as AnalysisStore, (key) => files.get(key), '/music-folder', prefix);

function track(artist: string, title: string, rel: string | undefined, seconds = 200): StoredAnalysis {
  const a = analysisOf(artist, title, { durationMs: seconds * 1000 + 400 });
  if (rel) files.set(a.trackKey, rel);
  return a;
}

describe('M3U8 playlists', () => {
  const a = track('Ana', 'First', 'Ana/First.flac', 201);
  const b = track('Bo', 'Second', undefined);
  const c = track('Line\nBreak', 'Carriage\rReturn', 'c/song.mp3', 59);

  it('lists the library files in order, each #EXTINF (whole seconds, artist - title) then its path; the rest counted', () => {
    const out = service().m3u([a, b, c]);
    expect(out.text).toBe('#EXTM3U\n#EXTINF:201,Ana - First\nAna/First.flac\n#EXTINF:59,Line Break - Carriage Return\nc/song.mp3\n');
    expect(out).toMatchObject({ listed: 2, skipped: 1 });
  });

  it('puts the paths under PLAYLIST_PATH_PREFIX (one slash between), for a player that mounts the folder elsewhere', () => {
    expect(service('/music/').m3u([a]).text.split('\n')[2]).toBe('/music/Ana/First.flac');
    expect(service('smb://nas/share').m3u([a]).text.split('\n')[2]).toBe('smb://nas/share/Ana/First.flac');
  });

  it('an empty list is a playlist of none', () => {
    expect(service().m3u([])).toEqual({ text: '#EXTM3U\n', listed: 0, skipped: 0 });
  });

  it('a name is a file name: trimmed, no separators, no leading dot, at most 100 characters', () => {
    expect(checkedPlaylistName('  Late night  ')).toBe('Late night');
    expect(checkedPlaylistName('Café «mix» 2')).toBe('Café «mix» 2');
    for (const bad of ['', '   ', '../up', 'a/b', 'a\\b', '.hidden', 'a:b', 'tab\there', 'x'.repeat(101), 42]) {
      expect(() => checkedPlaylistName(bad)).toThrow(/name must be 1 to 100 characters/);
    }
  });
});
