import { silentLogger } from '../../src/core/logger';
import { UpstreamSource } from '../../src/sources/upstream/upstream.source';
import { startFakeUpstream } from '../fixtures/sources/catalogues';
import { describeSourceContract } from './source.contract';


describeSourceContract('upstream', async () => {
  const server = await startFakeUpstream('k');
  const source = new UpstreamSource({ baseUrl: `${server.url}/api`, apiKey: 'k', timeoutMs: 2000 }, silentLogger);
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
