import type { Logger } from '../../core/logger';
import type { AnalysisService } from '../../analysis/analysis.service';
import type { AnalysisEvents } from '../../analysis/events/analysis-events.channel';
import type { Principal } from '../../auth/api-keys';
import type { RateLimitDecision } from '../../ops/rate-limit';
import type { EdgeRecorder } from './edge.cache';
import type { ContainerType } from 'type-graphql';
import { AnalysisLoaders } from './analysis.loaders';

/** What every resolver of one request sees. Built per request; only the app's resolver instances are shared. */
export interface GraphQLContext {
  /** The API key's owner: the edge authenticated the request before Apollo saw it. */
  principal: Principal;
  /**
   * The app's resolver instances (graphql.schema.ts, `resolverInstances`): every app in a
   * process runs on one schema, and type-graphql takes the instances from here.
   */
  resolvers: ContainerType;
  analyses: AnalysisLoaders;
  /** The request's logger (carries the request id). */
  log: Logger;
  /**
   * Cost of the operation by the schema's complexity estimators, set before execution
   * (rate limits count documents by it).
   */
  cost?: number;
  /** The rate limit's decision when the edge cache already charged this request. */
  charged?: RateLimitDecision;
  /** Present when the edge cache may keep this request's answer: told when it is complete. */
  edge?: EdgeRecorder;
  /** The analysis events, on a WebSocket operation (subscriptions listen to them). */
  events?: AnalysisEvents;
}

export function createContext(deps: {
  principal: Principal;
  analysis: AnalysisService;
  resolvers: ContainerType;
  log: Logger;
  charged?: RateLimitDecision | undefined;
  edge?: EdgeRecorder | undefined;
  events?: AnalysisEvents | undefined;
}): GraphQLContext {
  return {
    principal: deps.principal,
    resolvers: deps.resolvers,
    analyses: new AnalysisLoaders(deps.analysis, deps.principal.id),
    log: deps.log,
    ...(deps.charged ? { charged: deps.charged } : {}),
    ...(deps.edge ? { edge: deps.edge } : {}),
    ...(deps.events ? { events: deps.events } : {}),
  };
}
