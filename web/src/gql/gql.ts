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
    "query BrowseTracks($filter: TrackFilter, $orderBy: TrackOrder, $first: Int, $after: String) {\n  tracks(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        trackKey\n        artist\n        trackName\n        tempo\n        keyString\n        timeSignature\n        energy\n        mood {\n          happy\n          sad\n          relaxed\n          aggressive\n        }\n      }\n    }\n  }\n}": typeof types.BrowseTracksDocument,
    "query Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackKey\n    trackName\n    artist\n    thumbnailUrl\n    match_score\n  }\n}": typeof types.SearchDocument,
    "query Session {\n  __typename\n  viewerType: __type(name: \"Viewer\") {\n    name\n  }\n}": typeof types.SessionDocument,
    "fragment TrackDetail on TrackAnalysis {\n  trackKey\n  artist\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  loudness\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  confidence {\n    tempo\n    key\n    mode\n    timeSignature\n  }\n  timeline {\n    beats {\n      start\n      duration\n      confidence\n    }\n    bars {\n      start\n      duration\n      confidence\n    }\n    sections {\n      start\n      duration\n      confidence\n      loudness\n      tempo\n      key\n      mode\n    }\n  }\n}\n\nquery TrackAnalysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...TrackDetail\n  }\n}\n\nquery TrackStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      ...TrackDetail\n    }\n  }\n}\n\nquery SimilarTracks($trackKey: String!, $first: Int) {\n  similar(trackKey: $trackKey, first: $first) {\n    distance\n    track {\n      trackKey\n      artist\n      trackName\n      tempo\n      keyString\n    }\n  }\n}": typeof types.TrackDetailFragmentDoc,
};
const documents: Documents = {
    "query BrowseTracks($filter: TrackFilter, $orderBy: TrackOrder, $first: Int, $after: String) {\n  tracks(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        trackKey\n        artist\n        trackName\n        tempo\n        keyString\n        timeSignature\n        energy\n        mood {\n          happy\n          sad\n          relaxed\n          aggressive\n        }\n      }\n    }\n  }\n}": types.BrowseTracksDocument,
    "query Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackKey\n    trackName\n    artist\n    thumbnailUrl\n    match_score\n  }\n}": types.SearchDocument,
    "query Session {\n  __typename\n  viewerType: __type(name: \"Viewer\") {\n    name\n  }\n}": types.SessionDocument,
    "fragment TrackDetail on TrackAnalysis {\n  trackKey\n  artist\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  loudness\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  confidence {\n    tempo\n    key\n    mode\n    timeSignature\n  }\n  timeline {\n    beats {\n      start\n      duration\n      confidence\n    }\n    bars {\n      start\n      duration\n      confidence\n    }\n    sections {\n      start\n      duration\n      confidence\n      loudness\n      tempo\n      key\n      mode\n    }\n  }\n}\n\nquery TrackAnalysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...TrackDetail\n  }\n}\n\nquery TrackStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      ...TrackDetail\n    }\n  }\n}\n\nquery SimilarTracks($trackKey: String!, $first: Int) {\n  similar(trackKey: $trackKey, first: $first) {\n    distance\n    track {\n      trackKey\n      artist\n      trackName\n      tempo\n      keyString\n    }\n  }\n}": types.TrackDetailFragmentDoc,
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
export function graphql(source: "query BrowseTracks($filter: TrackFilter, $orderBy: TrackOrder, $first: Int, $after: String) {\n  tracks(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        trackKey\n        artist\n        trackName\n        tempo\n        keyString\n        timeSignature\n        energy\n        mood {\n          happy\n          sad\n          relaxed\n          aggressive\n        }\n      }\n    }\n  }\n}"): (typeof documents)["query BrowseTracks($filter: TrackFilter, $orderBy: TrackOrder, $first: Int, $after: String) {\n  tracks(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {\n    totalCount\n    pageInfo {\n      hasNextPage\n      endCursor\n    }\n    edges {\n      cursor\n      node {\n        trackKey\n        artist\n        trackName\n        tempo\n        keyString\n        timeSignature\n        energy\n        mood {\n          happy\n          sad\n          relaxed\n          aggressive\n        }\n      }\n    }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackKey\n    trackName\n    artist\n    thumbnailUrl\n    match_score\n  }\n}"): (typeof documents)["query Search($track: String!, $artist: String, $limit: Int) {\n  search(track: $track, artist: $artist, limit: $limit) {\n    trackKey\n    trackName\n    artist\n    thumbnailUrl\n    match_score\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Session {\n  __typename\n  viewerType: __type(name: \"Viewer\") {\n    name\n  }\n}"): (typeof documents)["query Session {\n  __typename\n  viewerType: __type(name: \"Viewer\") {\n    name\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment TrackDetail on TrackAnalysis {\n  trackKey\n  artist\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  loudness\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  confidence {\n    tempo\n    key\n    mode\n    timeSignature\n  }\n  timeline {\n    beats {\n      start\n      duration\n      confidence\n    }\n    bars {\n      start\n      duration\n      confidence\n    }\n    sections {\n      start\n      duration\n      confidence\n      loudness\n      tempo\n      key\n      mode\n    }\n  }\n}\n\nquery TrackAnalysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...TrackDetail\n  }\n}\n\nquery TrackStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      ...TrackDetail\n    }\n  }\n}\n\nquery SimilarTracks($trackKey: String!, $first: Int) {\n  similar(trackKey: $trackKey, first: $first) {\n    distance\n    track {\n      trackKey\n      artist\n      trackName\n      tempo\n      keyString\n    }\n  }\n}"): (typeof documents)["fragment TrackDetail on TrackAnalysis {\n  trackKey\n  artist\n  trackName\n  duration_ms\n  tempo\n  key\n  keyString\n  mode\n  timeSignature\n  loudness\n  energy\n  liveness\n  danceability\n  instrumentalness\n  speechiness\n  valence\n  arousal\n  approachability\n  engagement\n  mood {\n    happy\n    sad\n    relaxed\n    aggressive\n  }\n  confidence {\n    tempo\n    key\n    mode\n    timeSignature\n  }\n  timeline {\n    beats {\n      start\n      duration\n      confidence\n    }\n    bars {\n      start\n      duration\n      confidence\n    }\n    sections {\n      start\n      duration\n      confidence\n      loudness\n      tempo\n      key\n      mode\n    }\n  }\n}\n\nquery TrackAnalysis($trackKey: String!, $artist: String, $track: String) {\n  analysis(trackKey: $trackKey, artist: $artist, track: $track) {\n    ...TrackDetail\n  }\n}\n\nquery TrackStatus($trackKey: String!) {\n  analysisStatus(trackKey: $trackKey) {\n    trackKey\n    status\n    queuePosition\n    retryAfter\n    analysis {\n      ...TrackDetail\n    }\n  }\n}\n\nquery SimilarTracks($trackKey: String!, $first: Int) {\n  similar(trackKey: $trackKey, first: $first) {\n    distance\n    track {\n      trackKey\n      artist\n      trackName\n      tempo\n      keyString\n    }\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;