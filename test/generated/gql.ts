/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "fragment AnalysisFields on TrackAnalysis {\n  artist\n  trackKey\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  meta {\n    artist\n    track\n  }\n}\n\nquery Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackName\n    artist\n    thumbnailUrl\n    trackKey\n    match_score\n  }\n}\n\nquery Analysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisWithConfidence($trackKey: String!) {\n  analysis(trackKey: $trackKey) {\n    trackKey\n    confidence {\n      tempo\n      key\n      mode\n      timeSignature\n    }\n  }\n}\n\nquery Analyses($trackKeys: [String!]!) {\n  analyses(trackKeys: $trackKeys) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      trackKey\n      tempo\n    }\n  }\n}\n\nquery TrackKey($artist: String!, $track: String!) {\n  trackKey(artist: $artist, track: $track)\n}\n\nquery TooDeep($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    analysis {\n      mood {\n        happy\n      }\n    }\n  }\n}": typeof types.AnalysisFieldsFragmentDoc,
};
const documents: Documents = {
    "fragment AnalysisFields on TrackAnalysis {\n  artist\n  trackKey\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  meta {\n    artist\n    track\n  }\n}\n\nquery Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackName\n    artist\n    thumbnailUrl\n    trackKey\n    match_score\n  }\n}\n\nquery Analysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisWithConfidence($trackKey: String!) {\n  analysis(trackKey: $trackKey) {\n    trackKey\n    confidence {\n      tempo\n      key\n      mode\n      timeSignature\n    }\n  }\n}\n\nquery Analyses($trackKeys: [String!]!) {\n  analyses(trackKeys: $trackKeys) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      trackKey\n      tempo\n    }\n  }\n}\n\nquery TrackKey($artist: String!, $track: String!) {\n  trackKey(artist: $artist, track: $track)\n}\n\nquery TooDeep($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    analysis {\n      mood {\n        happy\n      }\n    }\n  }\n}": types.AnalysisFieldsFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AnalysisFields on TrackAnalysis {\n  artist\n  trackKey\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  meta {\n    artist\n    track\n  }\n}\n\nquery Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackName\n    artist\n    thumbnailUrl\n    trackKey\n    match_score\n  }\n}\n\nquery Analysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisWithConfidence($trackKey: String!) {\n  analysis(trackKey: $trackKey) {\n    trackKey\n    confidence {\n      tempo\n      key\n      mode\n      timeSignature\n    }\n  }\n}\n\nquery Analyses($trackKeys: [String!]!) {\n  analyses(trackKeys: $trackKeys) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      trackKey\n      tempo\n    }\n  }\n}\n\nquery TrackKey($artist: String!, $track: String!) {\n  trackKey(artist: $artist, track: $track)\n}\n\nquery TooDeep($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    analysis {\n      mood {\n        happy\n      }\n    }\n  }\n}"): (typeof documents)["fragment AnalysisFields on TrackAnalysis {\n  artist\n  trackKey\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  meta {\n    artist\n    track\n  }\n}\n\nquery Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackName\n    artist\n    thumbnailUrl\n    trackKey\n    match_score\n  }\n}\n\nquery Analysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisWithConfidence($trackKey: String!) {\n  analysis(trackKey: $trackKey) {\n    trackKey\n    confidence {\n      tempo\n      key\n      mode\n      timeSignature\n    }\n  }\n}\n\nquery Analyses($trackKeys: [String!]!) {\n  analyses(trackKeys: $trackKeys) {\n    ...AnalysisFields\n  }\n}\n\nquery AnalysisStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      trackKey\n      tempo\n    }\n  }\n}\n\nquery TrackKey($artist: String!, $track: String!) {\n  trackKey(artist: $artist, track: $track)\n}\n\nquery TooDeep($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    analysis {\n      mood {\n        happy\n      }\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;