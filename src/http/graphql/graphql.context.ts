import type { Logger } from '../../core/logger';
import type { AnalysisService } from '../../analysis/analysis.service';
import type { Principal } from '../../auth/api-keys';
import { AnalysisLoaders } from './analysis.loaders';

/** What every resolver of one request sees. Built per request; nothing in it is shared. */
export interface GraphQLContext {
  /** The API key's owner: the edge authenticated the request before Apollo saw it. */
  principal: Principal;
  analyses: AnalysisLoaders;
  /** The request's logger (carries the request id). */
  log: Logger;
  /**
   * Cost of the operation by the schema's complexity estimators, set before execution
   * (rate limits count documents by it).
   */
  cost?: number;
}

export function createContext(deps: { principal: Principal; analysis: AnalysisService; log: Logger }): GraphQLContext {
  return { principal: deps.principal, analyses: new AnalysisLoaders(deps.analysis), log: deps.log };
}
