import { silentLogger } from '../../src/core/logger';
import { SubsonicSource } from '../../src/sources/subsonic/subsonic.source';
import { SUBSONIC_PASSWORD, SUBSONIC_USER, startFakeSubsonic } from '../fixtures/sources/subsonic';
import { describeSourceContract } from './source.contract';

describeSourceContract('subsonic', async () => {
  const server = await startFakeSubsonic();
  const source = new SubsonicSource(
    { baseUrl: server.url, user: SUBSONIC_USER, password: SUBSONIC_PASSWORD, artworkUrl: (key) => `http://trackgraph.test/api/audio/artwork/${key}`, timeoutMs: 2000, maxAudioBytes: 1024 * 1024 },
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
