import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config';
import { silentLogger } from '../../../src/core/logger';
import { createSources } from '../../../src/sources/factory';
import { isMetadataSource, isStartableSource } from '../../../src/sources/source';
import { startFakeMusicBrainz } from '../../fixtures/sources/catalogues';


const engine = { analyse: () => Promise.reject(new Error('unused')), probe: async () => ({}), close: async () => undefined };
const deps = { engine, logger: silentLogger, artworkUrl: (k: string) => `http://x/${k}` };

describe('createSources', () => {
  it('builds the sources SOURCES names, in that order', () => {
    const config = loadConfig({ SOURCES: 'upstream,musicbrainz,deezer', UPSTREAM_URL: 'http://127.0.0.1:1/api' });
    expect(createSources(config, deps).map((s) => s.name)).toEqual(['upstream', 'musicbrainz', 'deezer']);
  });

  it('sends MusicBrainz a User-Agent with this version and the configured contact', async () => {
    const server = await startFakeMusicBrainz();
    try {
      const config = loadConfig({ SOURCES: 'musicbrainz', MUSICBRAINZ_BASE_URL: `${server.url}/ws/2`, MUSICBRAINZ_CONTACT: 'ops@example.org' });
      const [mb] = createSources(config, deps);
      if (!mb || !isMetadataSource(mb)) throw new Error('musicbrainz is a metadata source');
      await mb.search({ track: 'Money', limit: 1 }, { signal: AbortSignal.timeout(5000) });
      const { version } = JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { version: string };
      expect(server.requests[0]?.headers['user-agent']).toBe(`trackgraph/${version} ( ops@example.org )`);
      if (isStartableSource(mb)) await mb.close();
    } finally {
      await server.close();
    }
  });
});
