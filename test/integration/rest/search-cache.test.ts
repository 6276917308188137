import request from 'supertest';
import type { TrackCandidate } from '../../../src/core/types';
import type { MetadataSource, SearchQuery } from '../../../src/sources/source';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { createTestApp } from '../../helpers/test-app';

class CountingSource implements MetadataSource {
  calls = 0;
  constructor(
    readonly name: string,
    readonly cacheSearches: boolean,
  ) {}
  async search(query: SearchQuery): Promise<TrackCandidate[]> {
    this.calls++;
    return [{ artist: 'Pink Floyd', trackName: query.track, source: this.name }];
  }
}

describe('search responses cached per normalised query', () => {
  it('asks a remote source once for a repeated search, and the library every time', async () => {
    const remote = new CountingSource('deezer', true);
    const local = new CountingSource('library', false);
    const t = await createTestApp({ engine: new FakeEngine(), sources: () => [local, remote] });
    try {
      await request(t.app).get('/api/audio/search?track=Money&artist=Pink+Floyd').set(t.auth).expect(200);
      await request(t.app).get('/api/audio/search?track=money&artist=pink+floyd').set(t.auth).expect(200);
      expect(remote.calls).toBe(1);
      expect(local.calls).toBe(2);
    } finally {
      await t.close();
    }
  });
});
