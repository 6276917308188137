import { existsSync } from 'node:fs';
import path from 'node:path';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync, type ClassType, type ContainerType, type PubSub, type ResolverData } from 'type-graphql';
import type { BrowseService } from '../../analysis/browse.service';
import type { SoundService } from '../../analysis/sound.service';
import type { SoundMapService } from '../../analysis/sound-map.service';
import type { ApiKeyService } from '../../auth/api-keys';
import type { SearchService } from '../../search/search.service';
import type { UsageService } from '../../usage/usage.service';
import type { WebhookService } from '../../webhooks/webhook.service';
import { lazily } from '../../core/lazy';
import { AnalysisResolver } from './analysis.resolver';
import { AnalysisSubscriptionResolver } from './analysis.subscription';
import { BrowseResolver } from './browse.resolver';
import { DescriptorsResolver } from './descriptors.resolver';
import type { GraphQLContext } from './graphql.context';
import { RecommendationsResolver } from './recommendations.resolver';
import type { RecommendationsService } from '../../analysis/recommendations.service';
import { KeysResolver } from './keys.resolver';
import { PlaylistResolver } from './playlist.resolver';
import type { PlaylistService } from '../../analysis/playlists.service';
import { SoundMapResolver } from './map.resolver';
import { CrateResolver } from './crate.resolver';
import { TrackResolver } from './track.resolver';
import { UploadResolver } from './upload.resolver';
import type { UploadFetcher } from '../../uploads/upload.fetcher';
import type { UploadService } from '../../uploads/upload.service';
import { WebhookResolver } from './webhook.resolver';

/** The services the resolvers are built with. */
export interface ResolverServices {
  search: SearchService;
  /** Absent: tracks and similar are in the schema but not served (tests of other fields). */
  browse?: BrowseService;
  /** Absent: similar by SOUND and soundPath fail (tests of other fields). */
  sound?: SoundService;
  /** Absent: soundMap is in the schema but not served (tests of other fields). */
  soundMap?: SoundMapService;
  /** Absent: recommendations is in the schema but not served (tests of other fields). */
  recommendations?: RecommendationsService;
  /** Absent: viewer, apiKeys, usage and the key mutations are in the schema but not served (tests of other fields). */
  keys?: { apiKeys: ApiKeyService; usage: UsageService };
  /** Absent: the webhook fields are in the schema but not served (tests of other fields). */
  webhooks?: WebhookService;
  /** Absent: analyseUpload and analyseUrl are in the schema but not served (tests of other fields). */
  uploads?: { service: UploadService; fetcher: UploadFetcher };
  /** Absent: savePlaylist is in the schema but not served (tests of other fields). */
  playlists?: PlaylistService;
}

/**
 * type-graphql insists on a PubSub once a schema has a subscription, though ours subscribe
 * themselves (their `subscribe` option, on the analysis events) and name no topic.
 */
const NO_TOPICS: PubSub = {
  publish() {
    throw new Error('subscriptions here name no topics');
  },
  subscribe() {
    throw new Error('subscriptions here name no topics');
  },
};

const HEADER = '# Emitted from the type-graphql classes in src/http/graphql by `npm run schema`. Do not edit.\n\n';

/**
 * The resolver instances of one app, built from its services: a map from class to instance (no
 * global container). A request finds them in its context (`resolvers`), so that every app in a
 * process runs on the one schema.
 */
export function resolverInstances(services: ResolverServices): ContainerType {
  const resolvers = new Map<ClassType, object>();
  resolvers.set(TrackResolver, new TrackResolver(services.search));
  resolvers.set(AnalysisResolver, new AnalysisResolver());
  resolvers.set(DescriptorsResolver, new DescriptorsResolver());
  resolvers.set(CrateResolver, new CrateResolver());
  if (services.browse) resolvers.set(BrowseResolver, new BrowseResolver(services.browse, services.sound));
  resolvers.set(SoundMapResolver, new SoundMapResolver(services.soundMap));
  if (services.recommendations) resolvers.set(RecommendationsResolver, new RecommendationsResolver(services.recommendations));
  if (services.keys) resolvers.set(KeysResolver, new KeysResolver(services.keys.apiKeys, services.keys.usage));
  if (services.webhooks) resolvers.set(WebhookResolver, new WebhookResolver(services.webhooks));
  if (services.playlists) resolvers.set(PlaylistResolver, new PlaylistResolver(services.playlists));
  if (services.uploads) resolvers.set(UploadResolver, new UploadResolver(services.uploads.service, services.uploads.fetcher));
  resolvers.set(AnalysisSubscriptionResolver, new AnalysisSubscriptionResolver());
  return {
    get(someClass: ClassType) {
      const instance = resolvers.get(someClass);
      if (!instance) throw new Error(`no resolver instance for ${someClass.name}`);
      return instance;
    },
  };
}

/**
 * The executable schema, built once in a process (type-graphql's build, about 60 ms of CPU, and
 * Apollo's and graphql-ws's checks of it, which graphql keeps on the schema): the same for every
 * app, whose resolver instances each request brings in its context. Printing the SDL or
 * analysing a document uses it too.
 */
export const graphQLSchema = lazily((): GraphQLSchema => {
  const schema = buildSchemaSync({
    resolvers: [TrackResolver, AnalysisResolver, DescriptorsResolver, CrateResolver, BrowseResolver, SoundMapResolver, RecommendationsResolver, KeysResolver, WebhookResolver, UploadResolver, PlaylistResolver, AnalysisSubscriptionResolver],
    validate: false,
    pubSub: NO_TOPICS,
    container: ({ context }: ResolverData<GraphQLContext>) => context.resolvers,
  });
  // type-graphql takes no description for the root type; the schema's own object takes one.
  const query = schema.getQueryType();
  if (query) query.description = 'Search for tracks, read and browse their analyses; the key in use, every key and usage, the key\'s webhooks.';
  const mutation = schema.getMutationType();
  if (mutation) mutation.description = 'Make and revoke API keys and save playlists (admin keys only); manage the calling key\'s webhooks; analyse an uploaded file or an audio URL.';
  const subscription = schema.getSubscriptionType();
  if (subscription) subscription.description = 'Live events, over WebSocket (graphql-ws) at /graphql.';
  return schema;
});

/** The SDL as committed in schema/schema.graphql. */
export function schemaSdl(schema: GraphQLSchema): string {
  return `${HEADER}${printSchema(schema)}\n`;
}

/** schema/schema.graphql of this project, whether running from src (tsx, jest) or from dist. */
export function schemaFilePath(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`);
    dir = parent;
  }
  return path.join(dir, 'schema', 'schema.graphql');
}
