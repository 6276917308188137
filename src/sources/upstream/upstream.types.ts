/**
 * Raw shapes of another server of this REST contract (seed: "Track Search and Audio Analysis
 * Service Interface"). Fields beyond the contract are optional: a server of this project may
 * send them, others will not.
 */

import type { Confidences, SearchResult, TrackAnalysis } from '../../core/types';

/** A search result as the contract defines it (thumbnailUrl may be absent). */
export type UpstreamSearchResult = SearchResult;

export interface UpstreamSearchResponse {
  success: boolean;
  data: UpstreamSearchResult[];
}

/**
 * The contract's analysis object. keyString and meta are derivable and may be missing from a
 * lax server; the rest is not in the contract and is used when a server of this project sends it.
 */
export type UpstreamAnalysis = Omit<TrackAnalysis, 'keyString' | 'meta'> & {
  keyString?: string;
  meta?: TrackAnalysis['meta'];
  loudness?: number;
  confidence?: Confidences;
  timeline?: unknown;
  engine?: string;
};

/** 200: the analysis. 202: not ready yet (`data: null`, a status, Retry-After). */
export interface UpstreamAnalysisResponse {
  success: boolean;
  data: UpstreamAnalysis | null;
  status?: string;
  retryAfter?: number;
}

export interface UpstreamErrorResponse {
  success: false;
  error: { code: string; message: string };
}
