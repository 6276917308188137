/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Where the analysis of a key stands. */
export type AnalysisState =
  /** Stored: `analysis` holds it. */
  | 'DONE'
  /** Being analysed; ask again after `retryAfter` seconds. */
  | 'PROCESSING'
  /** Waiting for a worker; ask again after `retryAfter` seconds. */
  | 'QUEUED'
  /** Neither stored nor being analysed: search for it, or ask `analysis` with artist and track. */
  | 'UNKNOWN';

/** What a key may do. */
export type ApiKeyScope =
  /** The API, and managing keys, webhooks and every key’s usage. */
  | 'ADMIN'
  /** The API: search, analyses, browsing, and its own usage. */
  | 'READ';

/** Where a delivery stands. */
export type DeliveryStatus =
  /** No attempt is left (or the webhook was disabled, or deleted). */
  | 'FAILED'
  /** Not tried yet. */
  | 'PENDING'
  /** The last attempt failed; another is due at nextAttemptAt. */
  | 'RETRYING'
  /** The receiver answered 2xx. */
  | 'SUCCEEDED';

/** Where a descriptor's value is in the analysis object. */
export type DescriptorGroup =
  /** A field of the analysis (`energy`). */
  | 'DESCRIPTOR'
  /** A field of the analysis's `mood` (`happy`). */
  | 'MOOD';

/** An inclusive range; either bound may be left out. */
export type FloatRange = {
  /** The largest value included. */
  max?: number | null | undefined;
  /** The smallest value included. */
  min?: number | null | undefined;
};

/** Ranges of the mood scores. */
export type MoodFilter = {
  /** Range of mood.aggressive: Loud, dense, fast and harsh, its level flickering and its energy in the bass and the treble: metal and hard electronic music read high, quiet music near 0. */
  aggressive?: FloatRange | null | undefined;
  /** Range of mood.happy: Positive and active: loud, rhythmic songs in a clear key whose chords and drums strike and whose arrangement sounds many notes at once read high, major more than minor; quiet, sparse music low. */
  happy?: FloatRange | null | undefined;
  /** Range of mood.relaxed: Calm: dark, quiet, dynamic music with clean notes reads high, bright loud compressed music low; distortion alone lowers it a little. */
  relaxed?: FloatRange | null | undefined;
  /** Range of mood.sad: Negative and calm: slow, quiet, sparse music whose level swells and fades reads high, minor more than major. */
  sad?: FloatRange | null | undefined;
};

/** Which way an order runs. */
export type OrderDirection =
  /** Smallest first. */
  | 'ASC'
  /** Largest (or newest) first. */
  | 'DESC';

/** A condition on one of the auto-tagger’s tags: every bound given must hold. */
export type TagFilter = {
  /** The highest probability of the tag allowed (inclusive, 0–1). */
  max?: number | null | undefined;
  /** The lowest probability of the tag allowed (inclusive, 0–1). */
  min?: number | null | undefined;
  /** One of taggerTags, in any case ("hip-hop" is "Hip-Hop"). */
  name: string;
  /** The tag is among the analysis’s n most probable tags: 1–50. */
  top?: number | null | undefined;
};

/** Which stored analyses tracks() returns: every condition given must hold. */
export type TrackFilter = {
  /** Range of acousticness: Confidence that the track is acoustic: quiet, clean, held notes read high; loud, distorted, electronic sound low. */
  acousticness?: FloatRange | null | undefined;
  /** Range of approachability: How easy the track is to listen to: a clear key, a regular moderate beat, a clean sound. */
  approachability?: FloatRange | null | undefined;
  /** Range of arousal: Activation: loudness, distortion's grit, the density of onsets, a level that flickers fast, tempo, and energy in the bass and the treble rather than the mid-range. */
  arousal?: FloatRange | null | undefined;
  /** Substring of the artist, ignoring case, accents and compatibility forms ("beyonce" finds "Beyoncé"). */
  artist?: string | null | undefined;
  /** Range of danceability: Hits that strike and a level that pulses rather than swells, energy in the bass and the treble rather than the mid-range, drums on the beat, a loud master and few held notes. */
  danceability?: FloatRange | null | undefined;
  /** Milliseconds. */
  durationMs?: FloatRange | null | undefined;
  /** Range of energy: Perceived intensity: loud, dense, distorted music reads high, quiet sparse music low. */
  energy?: FloatRange | null | undefined;
  /** Range of engagement: How well the track may hold attention: a pulse that carries and a level that changes. */
  engagement?: FloatRange | null | undefined;
  /** Range of instrumentalness: Absence of voice: sung or spoken vocals lower it; above 0.5 probably instrumental. */
  instrumentalness?: FloatRange | null | undefined;
  /** Any of these pitch classes (0 = C … 11 = B). */
  key?: Array<number> | null | undefined;
  /** Range of liveness: Noise and reverberation between notes, as an audience and a room leave them: the likelihood of a live recording. */
  liveness?: FloatRange | null | undefined;
  /** LUFS. */
  loudness?: FloatRange | null | undefined;
  /** 1 = major, 0 = minor. */
  mode?: number | null | undefined;
  /** Ranges of the mood scores. */
  mood?: MoodFilter | null | undefined;
  /** Range of speechiness: Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
  speechiness?: FloatRange | null | undefined;
  /** Conditions on the auto-tagger’s tags (1–5), every one of which must hold. Only analyses made with the trained models (method `models:…`) carry tags: no other analysis matches. */
  tags?: Array<TagFilter> | null | undefined;
  /** Beats per minute. */
  tempo?: FloatRange | null | undefined;
  /** Any of these beats-per-bar values. */
  timeSignature?: Array<number> | null | undefined;
  /** Substring of the title, ignoring case, accents and compatibility forms. */
  trackName?: string | null | undefined;
  /** Range of valence: Musical positiveness as listeners judge it: the probability that people would place the track among happy, excited, content or serene music rather than angry, tense, sad or gloomy music (fitted on people's labels). */
  valence?: FloatRange | null | undefined;
};

/** An order of tracks(): a field and a direction. */
export type TrackOrder = {
  /** Which way (default DESC). */
  direction?: OrderDirection;
  /** What to order by. */
  field: TrackOrderField;
  /** With field TAG, and only with it: the tag (any case; taggerTags lists them) whose probability orders the tracks. */
  tag?: string | null | undefined;
};

/** What tracks() orders by. ANALYSED_AT is the order analyses were stored in; TAG a tag’s probability (orderBy.tag names it); every other value is the field of that name. */
export type TrackOrderField =
  /** acousticness: Confidence that the track is acoustic: quiet, clean, held notes read high; loud, distorted, electronic sound low. */
  | 'ACOUSTICNESS'
  /** The order analyses were stored in. */
  | 'ANALYSED_AT'
  /** approachability: How easy the track is to listen to: a clear key, a regular moderate beat, a clean sound. */
  | 'APPROACHABILITY'
  /** arousal: Activation: loudness, distortion's grit, the density of onsets, a level that flickers fast, tempo, and energy in the bass and the treble rather than the mid-range. */
  | 'AROUSAL'
  /** danceability: Hits that strike and a level that pulses rather than swells, energy in the bass and the treble rather than the mid-range, drums on the beat, a loud master and few held notes. */
  | 'DANCEABILITY'
  /** Duration of the file. */
  | 'DURATION_MS'
  /** energy: Perceived intensity: loud, dense, distorted music reads high, quiet sparse music low. */
  | 'ENERGY'
  /** engagement: How well the track may hold attention: a pulse that carries and a level that changes. */
  | 'ENGAGEMENT'
  /** instrumentalness: Absence of voice: sung or spoken vocals lower it; above 0.5 probably instrumental. */
  | 'INSTRUMENTALNESS'
  /** liveness: Noise and reverberation between notes, as an audience and a room leave them: the likelihood of a live recording. */
  | 'LIVENESS'
  /** Integrated loudness (LUFS). */
  | 'LOUDNESS'
  /** mood.aggressive: Loud, dense, fast and harsh, its level flickering and its energy in the bass and the treble: metal and hard electronic music read high, quiet music near 0. */
  | 'MOOD_AGGRESSIVE'
  /** mood.happy: Positive and active: loud, rhythmic songs in a clear key whose chords and drums strike and whose arrangement sounds many notes at once read high, major more than minor; quiet, sparse music low. */
  | 'MOOD_HAPPY'
  /** mood.relaxed: Calm: dark, quiet, dynamic music with clean notes reads high, bright loud compressed music low; distortion alone lowers it a little. */
  | 'MOOD_RELAXED'
  /** mood.sad: Negative and calm: slow, quiet, sparse music whose level swells and fades reads high, minor more than major. */
  | 'MOOD_SAD'
  /** speechiness: Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
  | 'SPEECHINESS'
  /** The probability of the tag `orderBy.tag` names (the tagger's, as `tags` lists them). Only the analyses that have it: those Essentia's models made. */
  | 'TAG'
  /** Beats per minute. */
  | 'TEMPO'
  /** valence: Musical positiveness as listeners judge it: the probability that people would place the track among happy, excited, content or serene music rather than angry, tense, sad or gloomy music (fitted on people's labels). */
  | 'VALENCE';

export type ApiKeyRowFragment = { id: string, name: string, scope: ApiKeyScope, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, source: string };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, name: string, scope: ApiKeyScope, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, source: string }> };

export type CreateApiKeyMutationVariables = Exact<{
  name: string;
  scope?: ApiKeyScope | null | undefined;
  expiresAt?: string | null | undefined;
}>;


export type CreateApiKeyMutation = { createApiKey: { key: string, apiKey: { id: string, name: string, scope: ApiKeyScope, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, source: string } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, name: string, scope: ApiKeyScope, createdAt: string, expiresAt: string | null, lastUsedAt: string | null, revokedAt: string | null, source: string } };

export type UsageQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type UsageQuery = { usage: Array<{ keyId: string, name: string, day: string, requests: number, analyses: number, uploads: number, uploadBytes: number }> };

export type WebhookRowFragment = { id: string, url: string, events: Array<string>, createdAt: string, disabledAt: string | null, disabledReason: string | null, consecutiveFailures: number };

export type DeliveryRowFragment = { id: string, event: string, attempt: number, status: DeliveryStatus, responseStatus: number | null, durationMs: number | null, createdAt: string, nextAttemptAt: string | null };

export type WebhooksQueryVariables = Exact<{
  deliveries?: number | null | undefined;
}>;


export type WebhooksQuery = { webhooks: Array<{ id: string, url: string, events: Array<string>, createdAt: string, disabledAt: string | null, disabledReason: string | null, consecutiveFailures: number, deliveries: Array<{ id: string, event: string, attempt: number, status: DeliveryStatus, responseStatus: number | null, durationMs: number | null, createdAt: string, nextAttemptAt: string | null }> }> };

export type CreateWebhookMutationVariables = Exact<{
  url: string;
  events?: Array<string> | string | null | undefined;
}>;


export type CreateWebhookMutation = { createWebhook: { secret: string, webhook: { id: string, url: string, events: Array<string>, createdAt: string, disabledAt: string | null, disabledReason: string | null, consecutiveFailures: number } } };

export type DeleteWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookMutation = { deleteWebhook: string };

export type TestWebhookMutationVariables = Exact<{
  id: string | number;
}>;


export type TestWebhookMutation = { testWebhook: { id: string, event: string, attempt: number, status: DeliveryStatus, responseStatus: number | null, durationMs: number | null, createdAt: string, nextAttemptAt: string | null } };

export type BrowseTracksQueryVariables = Exact<{
  filter?: TrackFilter | null | undefined;
  orderBy?: TrackOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type BrowseTracksQuery = { tracks: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { trackKey: string, artist: string, trackName: string, tempo: number, keyString: string, timeSignature: number, energy: number, descriptorValues: Array<{ name: string, group: DescriptorGroup, value: number }> } }> } };

export type VocabularyQueryVariables = Exact<{ [key: string]: never; }>;


export type VocabularyQuery = { pitchClasses: Array<string>, taggerTags: Array<string>, descriptors: Array<{ name: string, group: DescriptorGroup, label: string, description: string, min: number, max: number, orderField: string | null }> };

export type LibraryMapQueryVariables = Exact<{ [key: string]: never; }>;


export type LibraryMapQuery = { soundMap: { kind: string, size: number, total: number, computedAt: string, stale: boolean, points: Array<{ trackKey: string, artist: string, trackName: string, x: number, y: number, tempo: number, energy: number, valence: number, happy: number, sad: number, relaxed: number, aggressive: number, genre: string | null }> } };

export type MapNearestQueryVariables = Exact<{
  trackKey: string;
}>;


export type MapNearestQuery = { similar: Array<{ distance: number, track: { trackKey: string, artist: string, trackName: string } }> };

export type MapPathQueryVariables = Exact<{
  from: string;
  to: string;
}>;


export type MapPathQuery = { soundPath: Array<{ distance: number, track: { trackKey: string, artist: string, trackName: string } }> };

export type SearchQueryVariables = Exact<{
  track: string;
  artist?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type SearchQuery = { searchPage: { results: Array<{ trackKey: string, trackName: string, artist: string, thumbnailUrl: string, match_score: number }>, failedSources: Array<{ source: string, code: string, message: string }> } };

export type ViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ViewerQuery = { viewer: { id: string, name: string, scope: ApiKeyScope, expiresAt: string | null } };

export type TrackDetailFragment = { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, engine: string, method: string, camelot: string | null, openKey: string | null, tags: Array<{ name: string, probability: number }>, descriptorValues: Array<{ name: string, group: DescriptorGroup, value: number }>, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } };

export type TrackAnalysisQueryVariables = Exact<{
  trackKey: string;
  artist?: string | null | undefined;
  track?: string | null | undefined;
}>;


export type TrackAnalysisQuery = { analysis: { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, engine: string, method: string, camelot: string | null, openKey: string | null, tags: Array<{ name: string, probability: number }>, descriptorValues: Array<{ name: string, group: DescriptorGroup, value: number }>, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } } | null };

export type TrackStatusQueryVariables = Exact<{
  trackKey: string;
}>;


export type TrackStatusQuery = { analysisStatus: { trackKey: string, status: AnalysisState, queuePosition: number | null, retryAfter: number | null, analysis: { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, engine: string, method: string, camelot: string | null, openKey: string | null, tags: Array<{ name: string, probability: number }>, descriptorValues: Array<{ name: string, group: DescriptorGroup, value: number }>, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } } | null } };

export type SimilarTracksQueryVariables = Exact<{
  trackKey: string;
  first?: number | null | undefined;
  otherArtists?: boolean;
}>;


export type SimilarTracksQuery = { similar: Array<{ distance: number, track: { trackKey: string, artist: string, trackName: string, tempo: number, keyString: string } }> };

export type TrackTempoInRangeQueryVariables = Exact<{
  trackKey: string;
  min: number;
  max: number;
}>;


export type TrackTempoInRangeQuery = { analysis: { trackKey: string, tempoInRange: { tempo: number, confidence: number } } | null };

export const ApiKeyRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<ApiKeyRowFragment, unknown>;
export const WebhookRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Webhook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}}]}}]} as unknown as DocumentNode<WebhookRowFragment, unknown>;
export const DeliveryRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeliveryRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"responseStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}}]} as unknown as DocumentNode<DeliveryRowFragment, unknown>;
export const TrackDetailFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","alias":{"kind":"Name","value":"camelot"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"CAMELOT"}}]},{"kind":"Field","alias":{"kind":"Name","value":"openKey"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"OPEN_KEY"}}]},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"engine"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"probability"}}]}},{"kind":"Field","name":{"kind":"Name","value":"descriptorValues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackDetailFragment, unknown>;
export const ApiKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ApiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<ApiKeysQuery, ApiKeysQueryVariables>;
export const CreateApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKeyScope"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expiresAt"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTimeISO"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"expiresAt"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expiresAt"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<CreateApiKeyMutation, CreateApiKeyMutationVariables>;
export const RevokeApiKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeApiKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ApiKeyRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ApiKeyRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<RevokeApiKeyMutation, RevokeApiKeyMutationVariables>;
export const UsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Usage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"requests"}},{"kind":"Field","name":{"kind":"Name","value":"analyses"}},{"kind":"Field","name":{"kind":"Name","value":"uploads"}},{"kind":"Field","name":{"kind":"Name","value":"uploadBytes"}}]}}]}}]} as unknown as DocumentNode<UsageQuery, UsageQueryVariables>;
export const WebhooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Webhooks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveries"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookRow"}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveries"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DeliveryRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Webhook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeliveryRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"responseStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}}]} as unknown as DocumentNode<WebhooksQuery, WebhooksQueryVariables>;
export const CreateWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"events"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}},{"kind":"Argument","name":{"kind":"Name","value":"events"},"value":{"kind":"Variable","name":{"kind":"Name","value":"events"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"webhook"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WebhookRow"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WebhookRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Webhook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledAt"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"consecutiveFailures"}}]}}]} as unknown as DocumentNode<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const DeleteWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<DeleteWebhookMutation, DeleteWebhookMutationVariables>;
export const TestWebhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TestWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"testWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DeliveryRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeliveryRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookDelivery"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"responseStatus"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"nextAttemptAt"}}]}}]} as unknown as DocumentNode<TestWebhookMutation, TestWebhookMutationVariables>;
export const BrowseTracksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BrowseTracks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"descriptorValues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<BrowseTracksQuery, BrowseTracksQueryVariables>;
export const VocabularyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Vocabulary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"descriptors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}},{"kind":"Field","name":{"kind":"Name","value":"orderField"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pitchClasses"}},{"kind":"Field","name":{"kind":"Name","value":"taggerTags"}}]}}]} as unknown as DocumentNode<VocabularyQuery, VocabularyQueryVariables>;
export const LibraryMapDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LibraryMap"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"soundMap"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"size"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"computedAt"}},{"kind":"Field","name":{"kind":"Name","value":"stale"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"x"}},{"kind":"Field","name":{"kind":"Name","value":"y"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}},{"kind":"Field","name":{"kind":"Name","value":"genre"}}]}}]}}]}}]} as unknown as DocumentNode<LibraryMapQuery, LibraryMapQueryVariables>;
export const MapNearestDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MapNearest"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"similar"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"8"}},{"kind":"Argument","name":{"kind":"Name","value":"by"},"value":{"kind":"EnumValue","value":"SOUND"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distance"}},{"kind":"Field","name":{"kind":"Name","value":"track"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}}]}}]}}]}}]} as unknown as DocumentNode<MapNearestQuery, MapNearestQueryVariables>;
export const MapPathDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MapPath"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"soundPath"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}},{"kind":"Argument","name":{"kind":"Name","value":"steps"},"value":{"kind":"IntValue","value":"8"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distance"}},{"kind":"Field","name":{"kind":"Name","value":"track"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}}]}}]}}]}}]} as unknown as DocumentNode<MapPathQuery, MapPathQueryVariables>;
export const SearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Search"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchPage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"thumbnailUrl"}},{"kind":"Field","name":{"kind":"Name","value":"match_score"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failedSources"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<SearchQuery, SearchQueryVariables>;
export const ViewerDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<ViewerQuery, ViewerQueryVariables>;
export const TrackAnalysisDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackAnalysis"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrackDetail"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","alias":{"kind":"Name","value":"camelot"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"CAMELOT"}}]},{"kind":"Field","alias":{"kind":"Name","value":"openKey"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"OPEN_KEY"}}]},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"engine"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"probability"}}]}},{"kind":"Field","name":{"kind":"Name","value":"descriptorValues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackAnalysisQuery, TrackAnalysisQueryVariables>;
export const TrackStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysisStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfter"}},{"kind":"Field","name":{"kind":"Name","value":"analysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrackDetail"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","alias":{"kind":"Name","value":"camelot"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"CAMELOT"}}]},{"kind":"Field","alias":{"kind":"Name","value":"openKey"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"OPEN_KEY"}}]},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"engine"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"probability"}}]}},{"kind":"Field","name":{"kind":"Name","value":"descriptorValues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackStatusQuery, TrackStatusQueryVariables>;
export const SimilarTracksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SimilarTracks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"otherArtists"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}},"defaultValue":{"kind":"BooleanValue","value":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"similar"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"otherArtists"},"value":{"kind":"Variable","name":{"kind":"Name","value":"otherArtists"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distance"}},{"kind":"Field","name":{"kind":"Name","value":"track"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}}]}}]}}]}}]} as unknown as DocumentNode<SimilarTracksQuery, SimilarTracksQueryVariables>;
export const TrackTempoInRangeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackTempoInRange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"min"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"max"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"tempoInRange"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"min"},"value":{"kind":"Variable","name":{"kind":"Name","value":"min"}}},{"kind":"Argument","name":{"kind":"Name","value":"max"},"value":{"kind":"Variable","name":{"kind":"Name","value":"max"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}}]}}]}}]} as unknown as DocumentNode<TrackTempoInRangeQuery, TrackTempoInRangeQueryVariables>;