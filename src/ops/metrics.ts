import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CacheObserver, HttpObservation, JobCounts } from '../core/observers';

/** Source methods whose failures count as source errors. */
const SOURCE_CALLS = new Set(['search', 'fetchAudio', 'findAudio', 'fetchAnalysis', 'artwork', 'lookup']);

/**
 * The Prometheus metrics of one process, on a registry of its own (never prom-client's global
 * one), so several containers can live in one process (tests) without sharing counters.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Bounded: methods, route templates and statuses are finite sets. */
  private readonly httpChildren = new Map<string, Histogram.Internal<'method' | 'route' | 'status'>>();
  private readonly analysisDuration: Histogram<'outcome'>;
  private readonly cacheLookups: Counter<'namespace' | 'result'>;
  private readonly sourceErrors: Counter<'source' | 'operation'>;
  private readonly rateLimited: Counter<'edge'>;

  constructor(options: { role: 'api' | 'worker' }) {
    this.registry.setDefaultLabels({ role: options.role });
    collectDefaultMetrics({ register: this.registry, prefix: 'trackgraph_' });
    this.httpDuration = new Histogram({
      name: 'trackgraph_http_request_duration_seconds',
      help: 'HTTP requests by route template and status: latency, and (its _count) rate',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    this.analysisDuration = new Histogram({
      name: 'trackgraph_analysis_duration_seconds',
      help: 'Analysis jobs run in this process (fetch audio, analyse, store), by outcome (stored, or the error code)',
      labelNames: ['outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40, 80, 160],
      registers: [this.registry],
    });
    this.cacheLookups = new Counter({
      name: 'trackgraph_cache_lookups_total',
      help: 'Metadata cache lookups by result (hit, miss) and cache errors (error); hit ratio = hit / (hit + miss)',
      labelNames: ['namespace', 'result'],
      registers: [this.registry],
    });
    this.sourceErrors = new Counter({
      name: 'trackgraph_source_errors_total',
      help: 'Failed calls to a source (search, audio, artwork, remote analysis)',
      labelNames: ['source', 'operation'],
      registers: [this.registry],
    });
    this.rateLimited = new Counter({
      name: 'trackgraph_rate_limited_total',
      help: 'Requests refused with 429 RATE_LIMITED',
      labelNames: ['edge'],
      registers: [this.registry],
    });

  }

  /**
   * Reports the analysis queue's jobs not finished yet, read at each scrape from `queueCounts`
   * (the jobs are made after the metrics, which the sources and caches already report to).
   */
  observeQueue(queueCounts: () => Promise<JobCounts>): void {
    new Gauge({
      name: 'trackgraph_analysis_queue_jobs',
      help: 'Analysis jobs not finished yet, by state (waiting, active); cluster-wide on BullMQ',
      labelNames: ['state'],
      registers: [this.registry],
      async collect() {
        try {
          const c = await queueCounts();
          this.set({ state: 'waiting' }, c.waiting);
          this.set({ state: 'active' }, c.active);
        } catch {
          // Queue unreachable: no value this scrape rather than a failed scrape (readiness says why).
          this.reset();
        }
      },
    });
  }

  /**
   * Records a finished request's latency by route template and status (the request logger calls
   * it). The labelled child of each (method, route, status) is kept: prom-client would otherwise
   * hash the label object on every request.
   */
  observeHttp({ method, route, status, seconds }: HttpObservation): void {
    const id = `${method} ${route} ${status}`;
    let child = this.httpChildren.get(id);
    if (!child) {
      child = this.httpDuration.labels({ method, route, status: String(status) });
      this.httpChildren.set(id, child);
    }
    child.observe(seconds);
  }

  countRateLimited(edge: 'rest' | 'graphql'): void {
    this.rateLimited.inc({ edge });
  }

  cacheObserver(): CacheObserver {
    return {
      hit: (namespace) => this.cacheLookups.inc({ namespace, result: 'hit' }),
      miss: (namespace) => this.cacheLookups.inc({ namespace, result: 'miss' }),
      error: (namespace) => this.cacheLookups.inc({ namespace, result: 'error' }),
    };
  }

  /** The job body, timed by outcome: `stored`, or the error's code. */
  timeTask<A extends unknown[], R>(task: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      const end = this.analysisDuration.startTimer();
      try {
        const stored = await task(...args);
        end({ outcome: 'stored' });
        return stored;
      } catch (error) {
        end({ outcome: (error as { code?: string }).code ?? 'INTERNAL' });
        throw error;
      }
    };
  }

  /**
   * The sources, each behind a proxy counting its failed calls. A proxy rather than a wrapper
   * class keeps every optional ability of a source (the registry finds them by shape).
   */
  instrumentSources<S extends { readonly name: string }>(sources: S[]): S[] {
    const errors = this.sourceErrors;
    return sources.map(
      (source) =>
        new Proxy(source, {
          get(target, property, receiver) {
            const value: unknown = Reflect.get(target, property, receiver);
            if (typeof property !== 'string' || !SOURCE_CALLS.has(property) || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
              if (result instanceof Promise) {
                result.catch(() => errors.inc({ source: target.name, operation: property }));
              }
              return result;
            };
          },
        }),
    );
  }

  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
