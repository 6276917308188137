import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { requireAdmin, type ApiKeyService } from '../../auth/api-keys';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, type UsageService } from '../../usage/usage.service';
import type { GraphQLContext } from './graphql.context';
import { ApiKey, ApiKeyScope, CreateApiKeyArgs, CreatedApiKey, UsageDay, Viewer, apiKeyOf, usageDayOf, viewerOf } from './keys.types';

/** Extra cost of a mutation: it writes to the store. */
export const MUTATION_COST = 10;

/**
 * Keys and usage. Thin: check the scope, call one service method, shape. `viewer` answers any
 * key about itself and `usage` a read key about its own requests; listing, making and revoking
 * keys need an admin key (FORBIDDEN otherwise).
 */
@Resolver()
export class KeysResolver {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly usageService: UsageService,
  ) {}

  @Query(() => Viewer, { description: 'The key this request is made with: its id, name, scope and expiry.' })
  viewer(@Ctx() context: GraphQLContext): Viewer {
    return viewerOf(context.principal);
  }

  @Query(() => [ApiKey], { description: 'Every key, those of API_KEYS and ADMIN_API_KEYS first, revoked ones included. Admin keys only.' })
  async apiKeys(@Ctx() context: GraphQLContext): Promise<ApiKey[]> {
    requireAdmin(context.principal, 'listing keys');
    return (await this.keys.list()).map(apiKeyOf);
  }

  @Query(() => [UsageDay], {
    description: 'Requests and analyses per key per UTC day, oldest day first: every key’s for an admin key, its own for a read key.',
  })
  async usage(
    @Arg('days', () => Int, {
      nullable: true,
      defaultValue: DEFAULT_USAGE_DAYS,
      description: `The last N UTC days, today included: 1–${MAX_USAGE_DAYS}.`,
    })
    days: number | null,
    @Ctx() context: GraphQLContext,
  ): Promise<UsageDay[]> {
    return (await this.usageService.report(context.principal, days ?? DEFAULT_USAGE_DAYS)).map(usageDayOf);
  }

  @Mutation(() => CreatedApiKey, {
    description: 'Makes a key; the key itself is in this answer only. Admin keys only.',
    complexity: ({ childComplexity }) => MUTATION_COST + childComplexity,
  })
  async createApiKey(
    @Args(() => CreateApiKeyArgs) args: CreateApiKeyArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<CreatedApiKey> {
    requireAdmin(context.principal, 'creating keys');
    const { key, info } = await this.keys.create({ name: args.name, scope: args.scope ?? ApiKeyScope.READ, expiresAt: args.expiresAt ?? null, source: 'api' });
    return { apiKey: apiKeyOf(info), key };
  }

  @Mutation(() => ApiKey, {
    description:
      'Revokes a stored key: every server refuses it from this answer on. Revoking a revoked key changes nothing. ' +
      'Keys of API_KEYS and ADMIN_API_KEYS are removed from the configuration instead (INVALID_ARGUMENT). Admin keys only.',
    complexity: ({ childComplexity }) => MUTATION_COST + childComplexity,
  })
  async revokeApiKey(@Arg('id', () => ID, { description: 'The key’s id, as listed.' }) id: string, @Ctx() context: GraphQLContext): Promise<ApiKey> {
    requireAdmin(context.principal, 'revoking keys');
    return apiKeyOf(await this.keys.revoke(id));
  }
}
