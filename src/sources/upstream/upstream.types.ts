/**
 * Raw shapes of another server of this REST contract (seed: "Track Search and Audio Analysis
 * Service Interface"). Fields beyond the contract are optional: a server of this project may
 * send them, others will not.
 */

export interface UpstreamSearchResult {
  trackName: string;
  artist: string;
  thumbnailUrl?: string;
  trackKey: string;
  match_score: number;
}

export interface UpstreamSearchResponse {
  success: boolean;
  data: UpstreamSearchResult[];
}

export interface UpstreamMood {
  happy: number;
  sad: number;
  relaxed: number;
  aggressive: number;
}

export interface UpstreamAnalysis {
  artist: string;
  trackKey: string;
  trackName: string;
  duration_ms: number;
  tempo: number;
  key: number;
  keyString?: string;
  mode: number;
  timeSignature: number;
  energy: number;
  liveness: number;
  danceability: number;
  instrumentalness: number;
  speechiness: number;
  valence: number;
  arousal: number;
  approachability: number;
  engagement: number;
  mood: UpstreamMood;
  meta?: { artist: string; track: string };
  /** Not in the contract; used when present. */
  loudness?: number;
  confidence?: { tempo: number; key: number; mode: number; timeSignature: number };
  timeline?: unknown;
  engine?: string;
}

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
