import { Field, ID, InterfaceType } from 'type-graphql';

/*
 * Object identification for normalised client caches (Apollo Client, urql's graphcache, Relay):
 * every entity type has `id: ID!`, a global id `<TypeName>:<trackKey>` unique across types, and
 * the types a client can refetch by id implement Node (`node(id)` answers them).
 */

@InterfaceType({
  description: 'An object with a global id, refetchable with node(id).',
  // Resolvers hand plain objects over: the type is the one their global id names.
  resolveType: (value: { id: string }) => parseGlobalId(value.id)?.type,
})
export abstract class Node {
  @Field(() => ID, { description: 'Global id: "<TypeName>:<trackKey>", unique across types.' })
  id!: string;
}

/** The global id of an entity of `type` for a track key. */
export function globalId(type: string, trackKey: string): string {
  return `${type}:${trackKey}`;
}

/** The type and track key of a global id, or undefined when it is not one. */
export function parseGlobalId(id: string): { type: string; trackKey: string } | undefined {
  const match = /^([A-Za-z]\w{0,63}):([0-9A-Fa-f]{16})$/.exec(id);
  return match ? { type: match[1]!, trackKey: match[2]!.toLowerCase() } : undefined;
}
