import type { Express } from 'express';
import type { Container } from '../container';
import { createApp } from './app';
import { chargeGraphQL } from '../ops/rate-limit';
import { restGate } from './auth';
import { graphqlRateLimitPlugin } from './graphql/rate-limit.plugin';
import { createGraphQL } from './graphql/apollo.server';

export interface HttpApp {
  app: Express;
  /** Stops what the HTTP layer started (Apollo), after the server stopped accepting. */
  stop(): Promise<void>;
}

export interface HttpAppOptions {
  /** The built web dashboard to serve at / (default: web/dist of this package). */
  dashboardDir?: string;
}

/** The HTTP application of a container: REST contract, GraphQL and the web dashboard on one Express app. */
export async function buildHttpApp(container: Container, options: HttpAppOptions = {}): Promise<HttpApp> {
  const { config } = container;
  const rateLimit = {
    costPerPoint: config.RATE_LIMIT_GRAPHQL_COST,
    maxCost: config.GRAPHQL_MAX_COST,
    onRefused: () => container.metrics.countRateLimited('graphql'),
  };
  const graphql = await createGraphQL(
    { search: container.search, analysis: container.analysis, browse: container.browse, apiKeys: container.apiKeys },
    {
      sandbox: config.GRAPHQL_SANDBOX,
      maxDepth: config.GRAPHQL_MAX_DEPTH,
      maxCost: config.GRAPHQL_MAX_COST,
      plugins: [graphqlRateLimitPlugin(container.rateLimiter, rateLimit)],
      edgeCharge: (principal, cost) => chargeGraphQL(container.rateLimiter, rateLimit, principal.id, cost),
    },
    container.logger,
  );
  const app = createApp({
    services: {
      search: container.search,
      analysis: container.analysis,
      artwork: container.artwork,
    },
    logger: container.logger,
    publicUrl: config.publicUrl,
    corsOrigins: config.CORS_ORIGINS,
    graphql: graphql.handler,
    ops: {
      metrics: container.metrics,
      readiness: container.readiness,
      ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    },
    gate: restGate(container.rateLimiter, container.apiKeys, () => container.metrics.countRateLimited('rest')),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  return { app, stop: () => graphql.stop() };
}
