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

/** An inclusive range; either bound may be left out. */
export type FloatRange = {
  /** The largest value included. */
  max?: number | null | undefined;
  /** The smallest value included. */
  min?: number | null | undefined;
};

/** Ranges of the mood scores. */
export type MoodFilter = {
  /** Range of mood.aggressive: Predicted level of aggression or intensity. */
  aggressive?: FloatRange | null | undefined;
  /** Range of mood.happy: Predicted level of happiness. */
  happy?: FloatRange | null | undefined;
  /** Range of mood.relaxed: Predicted level of calmness or relaxation. */
  relaxed?: FloatRange | null | undefined;
  /** Range of mood.sad: Predicted level of sadness. */
  sad?: FloatRange | null | undefined;
};

/** Which way an order runs. */
export type OrderDirection =
  /** Smallest first. */
  | 'ASC'
  /** Largest (or newest) first. */
  | 'DESC';

/** Which stored analyses tracks() returns: every condition given must hold. */
export type TrackFilter = {
  /** Range of approachability: How accessible the track is to a general listener: conventional, consonant, steady. */
  approachability?: FloatRange | null | undefined;
  /** Range of arousal: Emotional intensity or stimulation: how exciting rather than calming the track is. */
  arousal?: FloatRange | null | undefined;
  /** Substring of the artist, ignoring case, accents and compatibility forms ("beyonce" finds "Beyoncé"). */
  artist?: string | null | undefined;
  /** Range of danceability: Suitability for dancing: a steady, clear beat carried by drums at a danceable tempo. */
  danceability?: FloatRange | null | undefined;
  /** Milliseconds. */
  durationMs?: FloatRange | null | undefined;
  /** Range of energy: Intensity and activity: loud, dense, bright and distorted music reads high, quiet sparse music low. */
  energy?: FloatRange | null | undefined;
  /** Range of engagement: Predicted ability to hold attention: variation and development over the track. */
  engagement?: FloatRange | null | undefined;
  /** Range of instrumentalness: Likelihood that the track has no vocals. */
  instrumentalness?: FloatRange | null | undefined;
  /** Any of these pitch classes (0 = C … 11 = B). */
  key?: Array<number> | null | undefined;
  /** Range of liveness: Likelihood that the recording is of a live performance (audience noise, room sound). */
  liveness?: FloatRange | null | undefined;
  /** LUFS. */
  loudness?: FloatRange | null | undefined;
  /** 1 = major, 0 = minor. */
  mode?: number | null | undefined;
  /** Ranges of the mood scores. */
  mood?: MoodFilter | null | undefined;
  /** Range of speechiness: Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
  speechiness?: FloatRange | null | undefined;
  /** Beats per minute. */
  tempo?: FloatRange | null | undefined;
  /** Any of these beats-per-bar values. */
  timeSignature?: Array<number> | null | undefined;
  /** Substring of the title, ignoring case, accents and compatibility forms. */
  trackName?: string | null | undefined;
  /** Range of valence: Musical positivity: higher sounds happier, cheerful or euphoric; lower sadder, tense or angry. */
  valence?: FloatRange | null | undefined;
};

/** An order of tracks(): a field and a direction. */
export type TrackOrder = {
  /** Which way (default DESC). */
  direction?: OrderDirection;
  /** What to order by. */
  field: TrackOrderField;
};

/** What tracks() orders by. ANALYSED_AT is the order analyses were stored in; every other value is the field of that name. */
export type TrackOrderField =
  /** The order analyses were stored in. */
  | 'ANALYSED_AT'
  /** approachability: How accessible the track is to a general listener: conventional, consonant, steady. */
  | 'APPROACHABILITY'
  /** arousal: Emotional intensity or stimulation: how exciting rather than calming the track is. */
  | 'AROUSAL'
  /** danceability: Suitability for dancing: a steady, clear beat carried by drums at a danceable tempo. */
  | 'DANCEABILITY'
  /** Duration of the file. */
  | 'DURATION_MS'
  /** energy: Intensity and activity: loud, dense, bright and distorted music reads high, quiet sparse music low. */
  | 'ENERGY'
  /** engagement: Predicted ability to hold attention: variation and development over the track. */
  | 'ENGAGEMENT'
  /** instrumentalness: Likelihood that the track has no vocals. */
  | 'INSTRUMENTALNESS'
  /** liveness: Likelihood that the recording is of a live performance (audience noise, room sound). */
  | 'LIVENESS'
  /** Integrated loudness (LUFS). */
  | 'LOUDNESS'
  /** mood.aggressive: Predicted level of aggression or intensity. */
  | 'MOOD_AGGRESSIVE'
  /** mood.happy: Predicted level of happiness. */
  | 'MOOD_HAPPY'
  /** mood.relaxed: Predicted level of calmness or relaxation. */
  | 'MOOD_RELAXED'
  /** mood.sad: Predicted level of sadness. */
  | 'MOOD_SAD'
  /** speechiness: Presence of spoken words: above 0.66 probably speech alone, below 0.33 music. */
  | 'SPEECHINESS'
  /** Beats per minute. */
  | 'TEMPO'
  /** valence: Musical positivity: higher sounds happier, cheerful or euphoric; lower sadder, tense or angry. */
  | 'VALENCE';

export type BrowseTracksQueryVariables = Exact<{
  filter?: TrackFilter | null | undefined;
  orderBy?: TrackOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type BrowseTracksQuery = { tracks: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { trackKey: string, artist: string, trackName: string, tempo: number, keyString: string, timeSignature: number, energy: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number } } }> } };

export type SearchQueryVariables = Exact<{
  track: string;
  artist?: string | null | undefined;
  limit?: number | null | undefined;
}>;


export type SearchQuery = { search: Array<{ trackKey: string, trackName: string, artist: string, thumbnailUrl: string | null, match_score: number }> };

export type SessionQueryVariables = Exact<{ [key: string]: never; }>;


export type SessionQuery = { __typename: 'Query', viewerType: { name: string | null } | null };

export type TrackDetailFragment = { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } };

export type TrackAnalysisQueryVariables = Exact<{
  trackKey: string;
  artist?: string | null | undefined;
  track?: string | null | undefined;
}>;


export type TrackAnalysisQuery = { analysis: { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } } | null };

export type TrackStatusQueryVariables = Exact<{
  trackKey: string;
}>;


export type TrackStatusQuery = { analysisStatus: { trackKey: string, status: AnalysisState, queuePosition: number | null, retryAfter: number | null, analysis: { trackKey: string, artist: string, trackName: string, duration_ms: number, tempo: number, key: number, keyString: string, mode: number, timeSignature: number, loudness: number, energy: number, liveness: number, danceability: number, instrumentalness: number, speechiness: number, valence: number, arousal: number, approachability: number, engagement: number, mood: { happy: number, sad: number, relaxed: number, aggressive: number }, confidence: { tempo: number, key: number, mode: number, timeSignature: number }, timeline: { beats: Array<{ start: number, duration: number, confidence: number }>, bars: Array<{ start: number, duration: number, confidence: number }>, sections: Array<{ start: number, duration: number, confidence: number, loudness: number, tempo: number, key: number, mode: number }> } } | null } };

export type SimilarTracksQueryVariables = Exact<{
  trackKey: string;
  first?: number | null | undefined;
}>;


export type SimilarTracksQuery = { similar: Array<{ distance: number, track: { trackKey: string, artist: string, trackName: string, tempo: number, keyString: string } }> };

export const TrackDetailFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackDetailFragment, unknown>;
export const BrowseTracksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BrowseTracks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackFilter"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TrackOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"orderBy"},"value":{"kind":"Variable","name":{"kind":"Name","value":"orderBy"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<BrowseTracksQuery, BrowseTracksQueryVariables>;
export const SearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Search"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"thumbnailUrl"}},{"kind":"Field","name":{"kind":"Name","value":"match_score"}}]}}]}}]} as unknown as DocumentNode<SearchQuery, SearchQueryVariables>;
export const SessionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","alias":{"kind":"Name","value":"viewerType"},"name":{"kind":"Name","value":"__type"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"StringValue","value":"Viewer","block":false}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<SessionQuery, SessionQueryVariables>;
export const TrackAnalysisDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackAnalysis"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"artist"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"track"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysis"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"artist"},"value":{"kind":"Variable","name":{"kind":"Name","value":"artist"}}},{"kind":"Argument","name":{"kind":"Name","value":"track"},"value":{"kind":"Variable","name":{"kind":"Name","value":"track"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrackDetail"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackAnalysisQuery, TrackAnalysisQueryVariables>;
export const TrackStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TrackStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"analysisStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"}},{"kind":"Field","name":{"kind":"Name","value":"retryAfter"}},{"kind":"Field","name":{"kind":"Name","value":"analysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrackDetail"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrackDetail"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrackAnalysis"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"duration_ms"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"energy"}},{"kind":"Field","name":{"kind":"Name","value":"liveness"}},{"kind":"Field","name":{"kind":"Name","value":"danceability"}},{"kind":"Field","name":{"kind":"Name","value":"instrumentalness"}},{"kind":"Field","name":{"kind":"Name","value":"speechiness"}},{"kind":"Field","name":{"kind":"Name","value":"valence"}},{"kind":"Field","name":{"kind":"Name","value":"arousal"}},{"kind":"Field","name":{"kind":"Name","value":"approachability"}},{"kind":"Field","name":{"kind":"Name","value":"engagement"}},{"kind":"Field","name":{"kind":"Name","value":"mood"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"happy"}},{"kind":"Field","name":{"kind":"Name","value":"sad"}},{"kind":"Field","name":{"kind":"Name","value":"relaxed"}},{"kind":"Field","name":{"kind":"Name","value":"aggressive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"timeSignature"}}]}},{"kind":"Field","name":{"kind":"Name","value":"timeline"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"beats"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"bars"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"duration"}},{"kind":"Field","name":{"kind":"Name","value":"confidence"}},{"kind":"Field","name":{"kind":"Name","value":"loudness"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}}]} as unknown as DocumentNode<TrackStatusQuery, TrackStatusQueryVariables>;
export const SimilarTracksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SimilarTracks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"similar"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trackKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trackKey"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"distance"}},{"kind":"Field","name":{"kind":"Name","value":"track"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trackKey"}},{"kind":"Field","name":{"kind":"Name","value":"artist"}},{"kind":"Field","name":{"kind":"Name","value":"trackName"}},{"kind":"Field","name":{"kind":"Name","value":"tempo"}},{"kind":"Field","name":{"kind":"Name","value":"keyString"}}]}}]}}]}}]} as unknown as DocumentNode<SimilarTracksQuery, SimilarTracksQueryVariables>;