import { checkReadiness, StillStarting } from '../../../src/ops/health';

describe('readiness', () => {
  it('reports a dependency still starting as it says and as degraded, an unreachable one as unreachable', async () => {
    const r = await checkReadiness([
      { name: 'store', essential: true, ping: async () => undefined },
      { name: 'sources', essential: false, ping: async () => Promise.reject(new StillStarting('library: indexing: 3 of 10 files')) },
    ]);
    expect(r).toEqual({ status: 'degraded', checks: { store: 'ok', sources: 'library: indexing: 3 of 10 files' } });

    const down = await checkReadiness([
      { name: 'store', essential: true, ping: async () => Promise.reject(new Error('connection refused')) },
      { name: 'sources', essential: false, ping: async () => undefined },
    ]);
    expect(down).toEqual({ status: 'not ready', checks: { store: 'unreachable: connection refused', sources: 'ok' } });
  });
});
