import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { SonicSimilarityService } from '../analysis/sonic-similarity.service';
import { SpotifyFeaturesService } from '../analysis/spotify-features.service';
import { createApp } from '../http/app';
import { packageVersion } from '../http/rest/openapi';
import { restGate } from '../http/auth';
import { createGraphQL } from '../http/graphql/apollo.server';
import { createSubscriptionServer } from '../http/graphql/subscriptions.server';
import { GraphQLCharges } from '../ops/rate-limit';
import { IsrcLookup } from '../search/isrc-lookup';
import type { Container } from './container.types';

export interface HttpApp {
  app: Express;
  /** The HTTP server's 'upgrade' listener: GraphQL subscriptions over WebSocket (graphql-ws) at /graphql. */
  upgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  /** Closes the WebSocket connections (1001 Going away), which would otherwise hold a closing server open. */
  closeSockets(): Promise<void>;
  /** Stops what the HTTP layer started (its WebSockets, Apollo), after the server stopped accepting. */
  stop(): Promise<void>;
}

export interface HttpAppOptions {
  /** The built web dashboard to serve at / (default: web/dist of this package). */
  dashboardDir?: string;
}

/**
 * The HTTP application of a container: REST contract, GraphQL and the web dashboard on one
 * Express app, with the limits, rate limits and metrics this configuration chooses.
 */
export async function buildHttpApp(container: Container, options: HttpAppOptions = {}): Promise<HttpApp> {
  const { config } = container;
  const charges = new GraphQLCharges(container.rateLimiter, {
    costPerPoint: config.RATE_LIMIT_GRAPHQL_COST,
    maxCost: config.GRAPHQL_MAX_COST,
    onRefused: () => container.metrics.countRateLimited('graphql'),
  });
  const limits = {
    maxTokens: config.GRAPHQL_MAX_TOKENS,
    maxDepth: config.GRAPHQL_MAX_DEPTH,
    maxSelections: config.GRAPHQL_MAX_SELECTIONS,
    maxAliases: config.GRAPHQL_MAX_ALIASES,
    maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
  };
  const graphql = await createGraphQL(
    { search: container.search, analysis: container.analysis, browse: container.browse, sound: container.sound, soundMap: container.soundMap, recommendations: container.recommendations, apiKeys: container.apiKeys, usage: container.usage, webhooks: container.webhooks,
      uploads: { service: container.uploads, fetcher: container.uploadFetcher, dir: config.uploadDir }, playlists: container.playlists },
    {
      sandbox: config.GRAPHQL_SANDBOX,
      limits: { ...limits, maxBatch: config.GRAPHQL_MAX_BATCH },
      maxCost: config.GRAPHQL_MAX_COST,
      charges,
      events: container.events,
    },
    container.logger,
  );
  const app = createApp({
    services: {
      search: container.search,
      analysis: container.analysis,
      artwork: container.artwork,
    },
    keys: { apiKeys: container.apiKeys, usage: container.usage },
    spotify: {
      features: new SpotifyFeaturesService(
        container.analysis,
        new IsrcLookup(container.registry, container.metadata, { sourceTimeoutMs: config.SOURCE_TIMEOUT_MS }, container.logger),
      ),
      recommendations: container.recommendations,
    },
    sound: { browse: container.browse, sound: container.sound, playlists: container.playlists },
    webhooks: container.webhooks,
    uploads: container.uploads,
    uploadFetcher: container.uploadFetcher,
    reanalyse: container.reanalyse,
    // The music server's songs, by their ids there, in OpenSubsonic's sonicSimilarity shape.
    ...(container.registry.musicServer('subsonic')
      ? { openSubsonic: { sonic: new SonicSimilarityService(container.sound, container.sourceTracks, 'subsonic'), serverVersion: packageVersion() } }
      : {}),
    logger: container.logger,
    publicUrl: config.publicUrl,
    corsOrigins: config.CORS_ORIGINS,
    sandbox: config.GRAPHQL_SANDBOX,
    graphql: graphql.handler,
    graphqlPost: graphql.post,
    ops: {
      metrics: container.metrics,
      readiness: container.readiness,
      ...(config.METRICS_TOKEN ? { metricsToken: config.METRICS_TOKEN } : {}),
    },
    gate: restGate(container.rateLimiter, container.apiKeys, () => container.metrics.countRateLimited('rest')),
    ...(options.dashboardDir ? { dashboardDir: options.dashboardDir } : {}),
  });
  const subscriptions = createSubscriptionServer({
    schema: graphql.schema,
    resolvers: graphql.resolvers,
    apiKeys: container.apiKeys,
    analysis: container.analysis,
    events: container.events,
    limits,
    maxCost: config.GRAPHQL_MAX_COST,
    maxSubscriptions: config.GRAPHQL_MAX_SUBSCRIPTIONS,
    charges,
    logger: container.logger,
  });
  return {
    app,
    upgrade: (req, socket, head) => subscriptions.handleUpgrade(req, socket, head),
    closeSockets: () => subscriptions.close(),
    async stop() {
      await subscriptions.close();
      await graphql.stop();
    },
  };
}
