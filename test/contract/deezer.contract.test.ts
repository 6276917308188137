import { silentLogger } from '../../src/core/logger';
import { DeezerSource } from '../../src/sources/deezer/deezer.source';
import { startFakeDeezer } from '../fixtures/sources/catalogues';
import { describeSourceContract } from './source.contract';


describeSourceContract('deezer', async () => {
  const server = await startFakeDeezer();
  const source = new DeezerSource({ baseUrl: server.url, timeoutMs: 2000, maxAudioBytes: 1 << 20 }, silentLogger);
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
