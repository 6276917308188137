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

/** The HTTP application of a container: REST contract and GraphQL on one Express app. */
export async function buildHttpApp(container: Container): Promise<HttpApp> {
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
      limits: {
        maxTokens: config.GRAPHQL_MAX_TOKENS,
        maxDepth: config.GRAPHQL_MAX_DEPTH,
        maxSelections: config.GRAPHQL_MAX_SELECTIONS,
        maxAliases: config.GRAPHQL_MAX_ALIASES,
        maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
      },
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
  });
  return { app, stop: () => graphql.stop() };
}
