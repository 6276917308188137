import { existsSync } from 'node:fs';
import path from 'node:path';
import { printSchema, type GraphQLSchema } from 'graphql';
import { buildSchemaSync } from 'type-graphql';
import type { BrowseService } from '../../analysis/browse.service';
import type { SearchService } from '../../search/search.service';
import { AnalysisResolver } from './analysis.resolver';
import { BrowseResolver } from './browse.resolver';
import { TrackResolver } from './track.resolver';

/** The services the resolvers are built with. */
export interface ResolverServices {
  search: SearchService;
  /** Absent: tracks and similar are in the schema but not served (tests of other fields). */
  browse?: BrowseService;
}

const HEADER = '# Emitted from the type-graphql classes in src/http/graphql by `npm run schema`. Do not edit.\n\n';

/**
 * The executable schema. type-graphql asks its container for resolver instances; ours is a map
 * from class to instance, built here from the services (no global container). Without
 * services (emitting the schema file), resolvers are never asked for.
 */
export function buildGraphQLSchema(services?: ResolverServices): GraphQLSchema {
  const resolvers = new Map<Function, object>();
  if (services) {
    resolvers.set(TrackResolver, new TrackResolver(services.search));
    resolvers.set(AnalysisResolver, new AnalysisResolver());
    if (services.browse) resolvers.set(BrowseResolver, new BrowseResolver(services.browse));
  }
  const schema = buildSchemaSync({
    resolvers: [TrackResolver, AnalysisResolver, BrowseResolver],
    validate: false,
    container: {
      get(someClass: Function) {
        const instance = resolvers.get(someClass);
        if (!instance) throw new Error(`no resolver instance for ${someClass.name}`);
        return instance;
      },
    },
  });
  // type-graphql takes no description for the root type; the schema's own object takes one.
  const query = schema.getQueryType();
  if (query) query.description = 'Search for tracks, read and browse their analyses.';
  return schema;
}

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
