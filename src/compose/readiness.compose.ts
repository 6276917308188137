import type { AnalysisJobs } from '../analysis/jobs/jobs';
import type { QueueConsumer } from '../analysis/jobs/bullmq.consumer';
import type { AnalysisStore } from '../analysis/store/store';
import type { Config } from '../config';
import type { AnalysisEngine } from '../core/types';
import { EnginePool } from '../engine/engine.pool';
import { Degraded, StillStarting, type DependencyCheck } from '../ops/health';
import type { CacheBackend } from '../search/keyv-store';
import type { SourceRegistry } from '../sources/registry';
import type { Deployment } from './deployment';

/** What /readyz checks, essential first: a failed essential check makes the node unready. */
export function readinessChecks(
  config: Config,
  deployment: Deployment,
  parts: { store: AnalysisStore; cache: CacheBackend; registry: SourceRegistry; engine: AnalysisEngine; jobs: AnalysisJobs; worker?: QueueConsumer },
): DependencyCheck[] {
  const { store, cache, registry, engine, jobs, worker } = parts;
  return [
    { name: 'store', essential: true, ping: () => store.ping() },
    { name: 'cache', essential: false, ping: () => cache.ping() },
    {
      name: 'sources',
      essential: false,
      ping: () => {
        const pending = registry.pending();
        if (pending.length > 0) return Promise.reject(new StillStarting(pending.join('; ')));
        const degraded = registry.degraded();
        return degraded.length > 0 ? Promise.reject(new Degraded(degraded.join('; '))) : Promise.resolve();
      },
    },
    ...(config.MODELS_DIR
      ? [
          {
            name: 'models',
            essential: false,
            ping: () => {
              const problem = engine instanceof EnginePool ? engine.modelsProblem : undefined;
              return problem ? Promise.reject(new Degraded(`serving the signal descriptors: ${problem}`)) : Promise.resolve();
            },
          },
        ]
      : []),
    ...(worker
      ? [{ name: 'queue', essential: true, ping: () => worker.ping() }]
      : deployment.queue
        ? [{ name: 'queue', essential: false, ping: () => jobs.ping() }]
        : []),
  ];
}
