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

export type TracksQueryVariables = Exact<{
  filter?: TrackFilter | null | undefined;
  orderBy?: TrackOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type TracksQuery = { tracks: { edges: Array<{ cursor: string, node: { trackKey: string, trackName: string, tempo: number, key: number, mode: number, energy: number, mood: { happy: number, relaxed: number } } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } };

export type TracksCountQueryVariables = Exact<{
  filter?: TrackFilter | null | undefined;
}>;


export type TracksCountQuery = { tracks: { totalCount: number } };

export type SimilarQueryVariables = Exact<{
  trackKey: string;
  first?: number | null | undefined;
}>;


export type SimilarQuery = { similar: Array<{ distance: number, track: { trackKey: string, trackName: string, keyString: string, tempo: number } }> };

export type AnalysisTimelineQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisTimelineQuery = { analysis: { trackKey: string, loudness: number, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, tempoConfidence: number, key: number, keyConfidence: number, mode: number, modeConfidence: number }> } } | null };

export type TaggerTagsQueryVariables = Exact<{ [key: string]: never; }>;


export type TaggerTagsQuery = { taggerTags: Array<string> };

export type AnalysisFieldsFragment = { artist: string, trackKey: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, acousticness: number | null, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, meta: { artist: string, track: string } };

export type SearchQueryVariables = Exact<{
  track: string;
  artist?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type SearchQuery = { search: Array<{ trackName: string, artist: string, thumbnailUrl: string, trackKey: string, match_score: number }> };

export type SearchPageQueryVariables = Exact<{
  track: string;
  artist?: string | null | undefined;
  limit?: number | null | undefined;
  offset?: number | null | undefined;
}>;


export type SearchPageQuery = { searchPage: { hasMore: boolean, results: Array<{ trackKey: string, trackName: string }>, failedSources: Array<{ source: string, code: string, message: string }> } };

export type AnalysisQueryVariables = Exact<{
  trackKey: string;
  artist?: string | null | undefined;
  track?: string | null | undefined;
}>;


export type AnalysisQuery = { analysis: { artist: string, trackKey: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, acousticness: number | null, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, meta: { artist: string, track: string } } | null };

export type AnalysisMethodAndTagsQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisMethodAndTagsQuery = { analysis: { trackKey: string, method: string, tags: Array<{ name: string, probability: number }> } | null };

export type AnalysisTopTagsQueryVariables = Exact<{
  trackKey: string;
  first?: number | null | undefined;
}>;


export type AnalysisTopTagsQuery = { analysis: { tags: Array<{ name: string, probability: number }> } | null };

export type AnalysisTempoInRangeQueryVariables = Exact<{
  trackKey: string;
  min: number;
  max: number;
}>;


export type AnalysisTempoInRangeQuery = { analysis: { tempo: number, tempoInRange: { tempo: number, confidence: number, alternatives: Array<{ tempo: number, confidence: number }> } } | null };

export type AnalysisWithConfidenceQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisWithConfidenceQuery = { analysis: { trackKey: string, confidence: { tempo: number, key: number, mode: number, timeSignature: number } } | null };

export type AnalysesQueryVariables = Exact<{
  trackKeys: Array<string> | string;
}>;


export type AnalysesQuery = { analyses: Array<{ artist: string, trackKey: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, acousticness: number | null, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, meta: { artist: string, track: string } } | null> };

export type AnalysisStatusQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisStatusQuery = { analysisStatus: { trackKey: string, status: AnalysisState, queuePosition: number | null, retryAfter: number | null, analysis: { trackKey: string, tempo: number } | null } };

export type TrackKeyQueryVariables = Exact<{
  artist: string;
  track: string;
}>;


export type TrackKeyQuery = { trackKey: string };

export type TooDeepQueryVariables = Exact<{
  trackKey: string;
}>;


export type TooDeepQuery = { analysisStatus: { analysis: { mood: { happy: number } } | null } };

export type DescriptorsQueryVariables = Exact<{ [key: string]: never; }>;


export type DescriptorsQuery = { pitchClasses: Array<string>, descriptors: Array<{ name: string, group: DescriptorGroup, label: string, description: string, min: number, max: number, orderField: string | null }> };

export type AnalysisDescriptorValuesQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisDescriptorValuesQuery = { analysis: { energy: number, mood: { happy: number }, descriptorValues: Array<{ name: string, group: DescriptorGroup, value: number }> } | null };

export type AnalysisKeyNamesQueryVariables = Exact<{
  trackKey: string;
}>;


export type AnalysisKeyNamesQuery = { analysis: { key: number, mode: number, keyString: string, standard: string | null, openKey: string | null, camelot: string | null } | null };

export type KeyFieldsFragment = { id: string, name: string, scope: ApiKeyScope, createdAt: unknown, expiresAt: unknown, lastUsedAt: unknown, revokedAt: unknown, source: string };

export type WhoAmIQueryVariables = Exact<{ [key: string]: never; }>;


export type WhoAmIQuery = { viewer: { id: string, name: string, scope: ApiKeyScope, expiresAt: unknown } };

export type ListKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ListKeysQuery = { apiKeys: Array<{ id: string, name: string, scope: ApiKeyScope, createdAt: unknown, expiresAt: unknown, lastUsedAt: unknown, revokedAt: unknown, source: string }> };

export type MakeKeyMutationVariables = Exact<{
  name: string;
  scope?: ApiKeyScope | null | undefined;
  expiresAt?: unknown;
}>;


export type MakeKeyMutation = { createApiKey: { key: string, apiKey: { id: string, name: string, scope: ApiKeyScope, createdAt: unknown, expiresAt: unknown, lastUsedAt: unknown, revokedAt: unknown, source: string } } };

export type DropKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type DropKeyMutation = { revokeApiKey: { id: string, name: string, scope: ApiKeyScope, createdAt: unknown, expiresAt: unknown, lastUsedAt: unknown, revokedAt: unknown, source: string } };

export type KeyUsageQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type KeyUsageQuery = { usage: Array<{ keyId: string, name: string, day: string, requests: number, analyses: number, uploads: number, uploadBytes: number }> };

export type SpotifyTimelineQueryVariables = Exact<{
  trackKey: string;
}>;


export type SpotifyTimelineQuery = { analysis: { trackKey: string, tempo: number, tuningHz: number | null, tempoAlternatives: Array<{ tempo: number, confidence: number }>, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, tatums: Array<{ start: number, duration: number, confidence: number }>, segments: Array<{ start: number, duration: number, confidence: number, loudnessStart: number, loudnessMax: number, loudnessMaxTime: number, loudnessEnd: number, pitches: Array<number>, timbre: Array<number> }> } } | null };

export const AnalysisFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnalysisFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"acousticness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"meta"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"track"}}]}}]}}]} as unknown as DocumentNode<AnalysisFieldsFragment, unknown>;
export const KeyFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"KeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<KeyFieldsFragment, unknown>;
export const TracksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Tracks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<TracksQuery, TracksQueryVariables>;
export const TracksCountDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracksCount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<TracksCountQuery, TracksCountQueryVariables>;
export const SimilarDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Similar"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"similar"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distance"}},{"kind":"Field","name":{"kind":"Name","value":"track"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}}]}}]}}]}}]} as unknown as DocumentNode<SimilarQuery, SimilarQueryVariables>;
export const AnalysisTimelineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisTimeline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"tempoConfidence"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyConfidence"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"modeConfidence"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisTimelineQuery, AnalysisTimelineQueryVariables>;
export const TaggerTagsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TaggerTags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taggerTags"}}]}}]} as unknown as DocumentNode<TaggerTagsQuery, TaggerTagsQueryVariables>;
export const SearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Search"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"thumbnailUrl"}},{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"match_score"}}]}}]}}]} as unknown as DocumentNode<SearchQuery, SearchQueryVariables>;
export const SearchPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SearchPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"searchPage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"failedSources"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<SearchPageQuery, SearchPageQueryVariables>;
export const AnalysisDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Analysis"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AnalysisFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnalysisFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"acousticness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"meta"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"track"}}]}}]}}]} as unknown as DocumentNode<AnalysisQuery, AnalysisQueryVariables>;
export const AnalysisMethodAndTagsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisMethodAndTags"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"tags"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"probability"}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisMethodAndTagsQuery, AnalysisMethodAndTagsQueryVariables>;
export const AnalysisTopTagsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisTopTags"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tags"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"probability"}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisTopTagsQuery, AnalysisTopTagsQueryVariables>;
export const AnalysisTempoInRangeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisTempoInRange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"min"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"max"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"tempoInRange"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"min"},"value":{"kind":"Variable","name":{"kind":"Name","value":"min"}}},{"kind":"Argument","name":{"kind":"Name","value":"max"},"value":{"kind":"Variable","name":{"kind":"Name","value":"max"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"alternatives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisTempoInRangeQuery, AnalysisTempoInRangeQueryVariables>;
export const AnalysisWithConfidenceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisWithConfidence"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisWithConfidenceQuery, AnalysisWithConfidenceQueryVariables>;
export const AnalysesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Analyses"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKeys"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analyses"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKeys"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKeys"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"AnalysisFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AnalysisFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"acousticness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"meta"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"track"}}]}}]}}]} as unknown as DocumentNode<AnalysesQuery, AnalysesQueryVariables>;
export const AnalysisStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysisStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfter"}},{"kind":"Field","name":{"kind":"Name","value":"analysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisStatusQuery, AnalysisStatusQueryVariables>;
export const TrackKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}}]}]}}]} as unknown as DocumentNode<TrackKeyQuery, TrackKeyQueryVariables>;
export const TooDeepDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TooDeep"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysisStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TooDeepQuery, TooDeepQueryVariables>;
export const DescriptorsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Descriptors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"descriptors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"min"}},{"kind":"Field","name":{"kind":"Name","value":"max"}},{"kind":"Field","name":{"kind":"Name","value":"orderField"}}]}},{"kind":"Field","name":{"kind":"Name","value":"pitchClasses"}}]}}]} as unknown as DocumentNode<DescriptorsQuery, DescriptorsQueryVariables>;
export const AnalysisDescriptorValuesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisDescriptorValues"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}}]}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"descriptorValues"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"group"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<AnalysisDescriptorValuesQuery, AnalysisDescriptorValuesQueryVariables>;
export const AnalysisKeyNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AnalysisKeyNames"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","alias":{"kind":"Name","value":"standard"},"name":{"kind":"Name","value":"keyName"}},{"kind":"Field","alias":{"kind":"Name","value":"openKey"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"OPEN_KEY"}}]},{"kind":"Field","alias":{"kind":"Name","value":"camelot"},"name":{"kind":"Name","value":"keyName"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"notation"},"value":{"kind":"EnumValue","value":"CAMELOT"}}]}]}}]}}]} as unknown as DocumentNode<AnalysisKeyNamesQuery, AnalysisKeyNamesQueryVariables>;
export const WhoAmIDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WhoAmI"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<WhoAmIQuery, WhoAmIQueryVariables>;
export const ListKeysDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ListKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiKeys"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"KeyFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"KeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<ListKeysQuery, ListKeysQueryVariables>;
export const MakeKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MakeKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKeyScope"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expiresAt"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTimeISO"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"expiresAt"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expiresAt"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"apiKey"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"KeyFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"KeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<MakeKeyMutation, MakeKeyMutationVariables>;
export const DropKeyDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DropKey"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiKey"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"KeyFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"KeyFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiKey"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}}]} as unknown as DocumentNode<DropKeyMutation, DropKeyMutationVariables>;
export const KeyUsageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"KeyUsage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"days"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"days"},"value":{"kind":"Variable","name":{"kind":"Name","value":"days"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"keyId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"day"}},{"kind":"Field","name":{"kind":"Name","value":"requests"}},{"kind":"Field","name":{"kind":"Name","value":"analyses"}},{"kind":"Field","name":{"kind":"Name","value":"uploads"}},{"kind":"Field","name":{"kind":"Name","value":"uploadBytes"}}]}}]}}]} as unknown as DocumentNode<KeyUsageQuery, KeyUsageQueryVariables>;
export const SpotifyTimelineDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SpotifyTimeline"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"tuningHz"}},{"kind":"Field","name":{"kind":"Name","value":"tempoAlternatives"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tatums"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"segments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudnessStart"}},{"kind":"Field","name":{"kind":"Name","value":"loudnessMax"}},{"kind":"Field","name":{"kind":"Name","value":"loudnessMaxTime"}},{"kind":"Field","name":{"kind":"Name","value":"loudnessEnd"}},{"kind":"Field","name":{"kind":"Name","value":"pitches"}},{"kind":"Field","name":{"kind":"Name","value":"timbre"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SpotifyTimelineQuery, SpotifyTimelineQueryVariables>;