import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DEFAULT_DELIVERIES, MAX_DELIVERIES, type WebhookService } from '../../webhooks/webhook.service';
import type { GraphQLContext } from './graphql.context';
import { WebhookLoaders } from './webhook.loaders';
import { CreatedWebhook, Webhook, WebhookDelivery, deliveryOf, webhookOf } from './webhook.types';

/** Extra cost of making a webhook (its host is resolved) and of sending a test event. */
export const WEBHOOK_WRITE_COST = 10;

@ArgsType()
class CreateWebhookArgs {
  @Field(() => String, { description: 'Where to POST the events: http or https, a public address.' })
  url!: string;

  @Field(() => [String], { nullable: true, description: 'analysis.completed and/or analysis.failed; both when absent.' })
  events?: string[] | null;
}

/**
 * The calling key's webhooks (every key's for an admin key). Thin: WebhookService checks the
 * arguments and who may see what; another key's webhook is NOT_FOUND like a missing one.
 */
@Resolver(() => Webhook)
export class WebhookResolver {
  /** Per request (the context is the request's): its webhook lookups. */
  private readonly loaders = new WeakMap<GraphQLContext, WebhookLoaders>();

  constructor(private readonly service: WebhookService) {}

  private loadersOf(context: GraphQLContext): WebhookLoaders {
    let loaders = this.loaders.get(context);
    if (!loaders) {
      loaders = new WebhookLoaders(this.service);
      this.loaders.set(context, loaders);
    }
    return loaders;
  }

  @Query(() => [Webhook], { description: 'The webhooks of the calling key (of every key, for an admin key), oldest first.' })
  async webhooks(@Ctx() context: GraphQLContext): Promise<Webhook[]> {
    return (await this.service.list(context.principal)).map(webhookOf);
  }

  @FieldResolver(() => [WebhookDelivery], {
    description: 'Its deliveries, newest first.',
    complexity: ({ args, childComplexity }) => 1 + (typeof args.first === 'number' ? args.first : DEFAULT_DELIVERIES) * childComplexity,
  })
  async deliveries(
    @Root() webhook: Webhook,
    @Arg('first', () => Int, { nullable: true, defaultValue: DEFAULT_DELIVERIES, description: `How many: 1–${MAX_DELIVERIES}.` }) first: number | null,
    @Ctx() context: GraphQLContext,
  ): Promise<WebhookDelivery[]> {
    return (await this.loadersOf(context).deliveries(webhook.view.id, first ?? DEFAULT_DELIVERIES)).map(deliveryOf);
  }

  @Mutation(() => CreatedWebhook, {
    description:
      'Makes a webhook for the calling key: the analyses it asks for while they are not stored yet are announced to `url` (http or https, a public address). ' +
      'The signing secret is in this answer only.',
    complexity: ({ childComplexity }) => WEBHOOK_WRITE_COST + childComplexity,
  })
  async createWebhook(@Args(() => CreateWebhookArgs) args: CreateWebhookArgs, @Ctx() context: GraphQLContext): Promise<CreatedWebhook> {
    const { webhook, secret } = await this.service.create(context.principal, { url: args.url, events: args.events });
    return { webhook: webhookOf(webhook), secret };
  }

  @Mutation(() => ID, { description: 'Deletes a webhook and its delivery log; answers its id.' })
  async deleteWebhook(@Arg('id', () => ID, { description: 'The webhook\'s id.' }) id: string, @Ctx() context: GraphQLContext): Promise<string> {
    await this.service.delete(context.principal, id);
    return id;
  }

  @Mutation(() => WebhookDelivery, {
    description: 'Sends a webhook.test event now (once, no retries); answers its delivery, PENDING until it has an outcome. A success enables a disabled webhook again.',
    complexity: ({ childComplexity }) => WEBHOOK_WRITE_COST + childComplexity,
  })
  async testWebhook(@Arg('id', () => ID, { description: 'The webhook\'s id.' }) id: string, @Ctx() context: GraphQLContext): Promise<WebhookDelivery> {
    return deliveryOf(await this.service.test(context.principal, id));
  }
}
