import { ApolloServer } from '@apollo/server';
import type { ComplexityEstimator } from 'graphql-query-complexity';
import type { GraphQLContext } from '../../../src/http/graphql/graphql.context';
import { costEstimators, costLimitPlugin } from '../../../src/http/graphql/graphql.cost';
import { graphQLSchema } from '../../../src/http/graphql/graphql.schema';
import { AnalysesDocument, AnalysisDocument, SearchDocument } from '../../generated/graphql';
import { fanOut } from '../../../measure/http/graphql-documents';

/**
 * The cost plugin alone on the real schema, its estimators counting how many fields they price;
 * a second plugin notes the cost it sees.
 */
async function pricing(): Promise<{ server: ApolloServer<GraphQLContext>; costs: (number | undefined)[]; fieldsPriced: () => number }> {
  const costs: (number | undefined)[] = [];
  let fields = 0;
  const counting: ComplexityEstimator = () => {
    fields++;
    return undefined;
  };
  const server = new ApolloServer<GraphQLContext>({
    schema: graphQLSchema(),
    plugins: [
      costLimitPlugin(5000, [counting, ...costEstimators()]),
      { requestDidStart: async () => ({ didResolveOperation: async ({ contextValue }) => void costs.push(contextValue.cost) }) },
    ],
  });
  await server.start();
  return { server, costs, fieldsPriced: () => fields };
}

// Resolvers have no services here and fail; these tests look only at what happens before them.
const context = () => ({ contextValue: {} as GraphQLContext });

describe('GraphQL document cost', () => {
  it('prices a document once for variables that differ only in their strings', async () => {
    const { server, costs, fieldsPriced } = await pricing();
    try {
      await server.executeOperation({ query: AnalysisDocument, variables: { trackKey: 'bc24aaa5a97c70ed' } }, context());
      const once = fieldsPriced();
      expect(once).toBeGreaterThan(0);
      await server.executeOperation({ query: AnalysisDocument, variables: { trackKey: 'f63116f780b3b1eb' } }, context());
      expect(fieldsPriced()).toBe(once);
      // Another set of variables (artist given): priced once more, then remembered too.
      await server.executeOperation({ query: AnalysisDocument, variables: { trackKey: 'f63116f780b3b1eb', artist: 'x' } }, context());
      await server.executeOperation({ query: AnalysisDocument, variables: { trackKey: '0123456789abcdef', artist: 'y' } }, context());
      expect(fieldsPriced()).toBe(2 * once);
      expect(new Set(costs).size).toBe(1);
    } finally {
      await server.stop();
    }
  });

  it('prices again when a list length or a limit changes, and the price follows it', async () => {
    const { server, costs } = await pricing();
    try {
      for (const trackKeys of [['a'], ['a', 'b'], ['c'], ['a', 'b', 'c']]) {
        await server.executeOperation({ query: AnalysesDocument, variables: { trackKeys } }, context());
      }
      const [one, two, oneAgain, three] = costs as number[];
      expect(oneAgain).toBe(one);
      expect(two! - one!).toBe(three! - two!);
      expect(two!).toBeGreaterThan(one!);

      await server.executeOperation({ query: SearchDocument, variables: { track: 't', limit: 5 } }, context());
      await server.executeOperation({ query: SearchDocument, variables: { track: 't', limit: 50 } }, context());
      expect(costs[5]!).toBeGreaterThan(costs[4]!);
    } finally {
      await server.stop();
    }
  });

  it('refuses variables of the wrong type with BAD_USER_INPUT, cached price or not', async () => {
    const { server } = await pricing();
    try {
      await server.executeOperation({ query: AnalysesDocument, variables: { trackKeys: ['a'] } }, context());
      const res = await server.executeOperation({ query: AnalysesDocument, variables: { trackKeys: [5] } as never }, context());
      expect(res.body.kind === 'single' && res.body.singleResult.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    } finally {
      await server.stop();
    }
  });

  it('prices each fragment once: a fan-out of 10 levels of 8 spreads costs 8^10 after pricing one field', async () => {
    const { server, fieldsPriced } = await pricing();
    try {
      const res = await server.executeOperation({ query: fanOut(10) }, context());
      expect(fieldsPriced()).toBe(1);
      const error = res.body.kind === 'single' ? res.body.singleResult.errors?.[0] : undefined;
      expect(error?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', cost: 8 ** 10, maxCost: 5000 });
    } finally {
      await server.stop();
    }
  });

  it('prices skipped selections at nothing and a fragment spread twice twice', async () => {
    const { server, costs } = await pricing();
    try {
      const base = '{ a: trackKey(artist: "a", track: "b") }';
      const skipped = '{ a: trackKey(artist: "a", track: "b") b: trackKey(artist: "a", track: "c") @skip(if: true) ...F @include(if: false) } fragment F on Query { c: trackKey(artist: "a", track: "d") }';
      const twice = '{ ...F ... on Query { ...F } } fragment F on Query { c: trackKey(artist: "a", track: "d") }';
      for (const query of [base, skipped, twice]) await server.executeOperation({ query }, context());
      expect(costs).toEqual([1, 1, 2]);
    } finally {
      await server.stop();
    }
  });
});
