import { z } from 'zod';
import { invalidArgument } from '../core/errors';
import { nameProblem, tidyName } from '../core/name';

/*
 * Argument rules both edges apply, REST to query strings and GraphQL to typed arguments, with
 * the same messages, so that a client reads the same sentence over either.
 */

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

/** A track or artist name, over REST and GraphQL alike: the rule of src/core/name.ts. */
export const nameRule = (field: string) =>
  z
    .string({ error: `${field} must be a single string` })
    .transform(tidyName)
    .superRefine((tidied, ctx) => {
      const problem = nameProblem(field, tidied);
      if (problem !== undefined) ctx.addIssue(problem);
    });

/** Number of search results, over REST and GraphQL alike: a whole number from 1 to MAX_LIMIT. */
export const limitOf = (n: z.ZodNumber) =>
  n.int('limit must be a whole number').min(1, 'limit must be at least 1').max(MAX_LIMIT, `limit must be at most ${MAX_LIMIT}`);

export const limitRule = limitOf(z.number({ error: 'limit must be a number' }));

/**
 * Parses a request body that must be a JSON object (`shape` names its fields for the message), then
 * as parse() does: a missing body, an array or a scalar is told as such, not as a missing field.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown, shape: string): z.infer<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidArgument(`the body must be a JSON object ${shape} sent with Content-Type: application/json`);
  }
  return parse(schema, body);
}

/** Parses with a schema, turning the first problem into INVALID_ARGUMENT with a clear message. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  const given = issue.path.reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
  const message = issue.code === 'invalid_type' && given === undefined ? `${field} is required` : issue.message;
  throw invalidArgument(message);
}
