import { silentLogger } from '../../src/core/logger';
import { MusicBrainzSource } from '../../src/sources/musicbrainz/musicbrainz.source';
import { startFakeMusicBrainz } from '../fixtures/sources/catalogues';
import { describeSourceContract } from './source.contract';


describeSourceContract('musicbrainz', async () => {
  const server = await startFakeMusicBrainz();
  const source = new MusicBrainzSource(
    {
      baseUrl: `${server.url}/ws/2`,
      coverArtBaseUrl: 'http://coverart.test',
      userAgent: 'trackgraph/test ( test@example.org )',
      timeoutMs: 2000,
      rateLimit: { max: 100, intervalMs: 1000 },
    },
    silentLogger,
  );
  return {
    source,
    knownQuery: { track: 'Money', artist: 'Pink Floyd', limit: 10 },
    unknownQuery: { track: 'Zzyzx Road Nonexistent', limit: 10 },
    close: async () => {
      await source.close();
      await server.close();
    },
  };
});
