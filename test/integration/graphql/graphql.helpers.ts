import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print, type DocumentNode, type GraphQLFormattedError } from 'graphql';
import request from 'supertest';
import type { StoredAnalysis } from '../../../src/core/types';
import { trackKey } from '../../../src/core/track-key';
import { featuresFromBytes } from '../../../measure/http/fake-engine';
import type { TestApp } from '../../helpers/test-app';

export interface GraphQLResponse<R> {
  status: number;
  headers: Record<string, string>;
  body: { data?: R | null; errors?: GraphQLFormattedError[] };
}

const printed = new WeakMap<DocumentNode, string>();

/** POSTs a typed operation to /graphql as a client would (JSON body), with the test key unless told otherwise. */
export async function graphql<R, V>(
  t: TestApp,
  document: TypedDocumentNode<R, V>,
  variables?: V,
  headers: Record<string, string> = t.auth,
): Promise<GraphQLResponse<R>> {
  let query = printed.get(document);
  if (query === undefined) {
    query = print(document);
    printed.set(document, query);
  }
  return post<R>(t, { query, ...(variables ? { variables } : {}) }, headers);
}

/** POSTs a raw body (for documents written in the test, such as generated aliases). */
export async function post<R = Record<string, unknown>>(
  t: TestApp,
  body: { query: string; variables?: unknown; operationName?: string },
  headers: Record<string, string> = t.auth,
): Promise<GraphQLResponse<R>> {
  const res = await request(t.app).post('/graphql').set(headers).send(body);
  return { status: res.status, headers: res.headers, body: res.body };
}

/** The one error of a response: its code and message. */
export function onlyError(res: GraphQLResponse<unknown>): { code: unknown; message: string; path?: readonly (string | number)[] } {
  expect(res.body.errors).toHaveLength(1);
  const error = res.body.errors![0]!;
  return { code: error.extensions?.code, message: error.message, ...(error.path ? { path: error.path } : {}) };
}

/** A stored analysis of a track, with features that depend on its name. */
export function storedAnalysis(artist: string, trackName: string): StoredAnalysis {
  return {
    trackKey: trackKey(artist, trackName),
    artist,
    trackName,
    features: featuresFromBytes(new TextEncoder().encode(`${artist} - ${trackName}`)),
    analysedAt: '2026-01-01T00:00:00.000Z',
    source: 'library',
  };
}

/** Stores `count` analyses of made-up tracks and returns their keys, in order. */
export async function seedAnalyses(t: TestApp, count: number): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const stored = storedAnalysis('Seed Artist', `Track ${i}`);
    await t.container.store.save(stored);
    keys.push(stored.trackKey);
  }
  return keys;
}
