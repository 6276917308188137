/*
 * The rule for track and artist names given by a client: a search's track and artist, an
 * analysis's artist and track, and browse's text filters. The REST and GraphQL edges apply it
 * through a zod rule (src/http/argument.rules.ts), the browse service directly; both read their
 * messages from here, so a client gets the same sentence wherever a name is refused.
 */

/** Longest name accepted, in characters (UTF-16 code units, as String.length counts). */
export const MAX_NAME_LENGTH = 300;

/** A name as it is used: whitespace runs collapsed to one space, trimmed. */
export function tidyName(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * Control characters (C0, DEL, C1) left after tidying: no title has them, logs must not carry
 * them, and PostgreSQL refuses NUL in text. Tabs and line breaks are whitespace, already collapsed.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why a tidied name is refused, as a message naming `field`; undefined when it is accepted. */
export function nameProblem(field: string, tidied: string): string | undefined {
  if (tidied.length === 0) return `${field} must not be empty`;
  if (tidied.length > MAX_NAME_LENGTH) return `${field} must be at most ${MAX_NAME_LENGTH} characters`;
  if (CONTROL.test(tidied)) return `${field} must not contain control characters`;
  return undefined;
}
