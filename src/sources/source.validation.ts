import { z } from 'zod';
import {
  DURATION_MAX_MS,
  NAME_MAX_LENGTH,
  describeIssues,
  httpUrlSchema,
  nameSchema,
  storedAnalysisSchema,
} from '../core/contract.schema';
import { AppError } from '../core/errors';
import type { AudioRef, StoredAnalysis, TrackCandidate } from '../core/types';

/*
 * What a source hands in is data from outside (a catalogue's JSON, another server's analysis, a
 * file's tags) and is checked against the contract's schemas (src/core/contract.schema.ts)
 * before anything of it is cached, stored or served. The consumers run these checks on every
 * source's records, whatever the source, so a new source cannot forget them: SearchService on
 * candidates, AnalysisRunner on analyses and audio references.
 */

/** ISO 3901: country, registrant, year, designation. */
const ISRC = /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/;

const sourceName = z.string().min(1).max(64);

/** Without these a candidate is no candidate: it is refused when one fails. */
const candidateCore = z.object({ artist: nameSchema, trackName: nameSchema, source: sourceName });

/** These may be missing: one that fails is dropped and the candidate kept. */
const candidateExtras = {
  album: nameSchema,
  durationMs: z.int().min(1).max(DURATION_MAX_MS),
  thumbnailUrl: httpUrlSchema,
  isrc: z.string().regex(ISRC),
  sourceId: z.string().min(1).max(4 * NAME_MAX_LENGTH),
  sourceScore: z.number().min(0).max(1),
} satisfies Partial<Record<keyof TrackCandidate, z.ZodType>>;

const audioRefSchema = z.object({ source: sourceName, locator: z.string().min(1).max(4 * NAME_MAX_LENGTH) });

/**
 * An audio reference as it may be used: source and locator valid, else none (the track is then
 * metadata-only and its audio is looked for elsewhere); a `url` that is not http(s) is dropped
 * (the source resolves the locator afresh).
 */
export function checkAudioRef(ref: AudioRef): { ref?: AudioRef; dropped: string[] } {
  if (!audioRefSchema.safeParse({ source: ref.source, locator: ref.locator }).success) return { dropped: ['audio'] };
  if (ref.url === undefined) return { ref: { source: ref.source, locator: ref.locator }, dropped: [] };
  const url = httpUrlSchema.safeParse(ref.url);
  return url.success
    ? { ref: { source: ref.source, locator: ref.locator, url: ref.url }, dropped: [] }
    : { ref: { source: ref.source, locator: ref.locator }, dropped: ['audio.url'] };
}

export type CandidateCheck =
  | { ok: true; candidate: TrackCandidate; dropped: string[] }
  | { ok: false; problem: string };

/** One candidate against the contract: refused when artist or title fail, otherwise kept with its failing optional fields dropped. */
export function checkCandidate(candidate: TrackCandidate): CandidateCheck {
  const core = candidateCore.safeParse({ artist: candidate.artist, trackName: candidate.trackName, source: candidate.source });
  if (!core.success) return { ok: false, problem: describeIssues(core.error) };
  const kept: TrackCandidate = { artist: candidate.artist, trackName: candidate.trackName, source: candidate.source };
  const dropped: string[] = [];
  for (const [field, schema] of Object.entries(candidateExtras) as [keyof typeof candidateExtras, z.ZodType][]) {
    const value = candidate[field];
    if (value === undefined) continue;
    if (schema.safeParse(value).success) Object.assign(kept, { [field]: value });
    else dropped.push(field);
  }
  if (candidate.audio !== undefined) {
    const audio = checkAudioRef(candidate.audio);
    if (audio.ref) kept.audio = audio.ref;
    dropped.push(...audio.dropped);
  }
  return { ok: true, candidate: kept, dropped };
}

export interface CheckedCandidates {
  candidates: TrackCandidate[];
  /** Why each refused candidate was refused. */
  refused: string[];
  /** Fields dropped from kept candidates, one entry per field and candidate. */
  dropped: string[];
}

export function checkCandidates(found: readonly TrackCandidate[]): CheckedCandidates {
  const out: CheckedCandidates = { candidates: [], refused: [], dropped: [] };
  for (const c of found) {
    const checked = checkCandidate(c);
    if (checked.ok) {
      out.candidates.push(checked.candidate);
      out.dropped.push(...checked.dropped);
    } else {
      out.refused.push(checked.problem);
    }
  }
  return out;
}

/**
 * An analysis that a source answered itself (another server of the contract), before it is
 * stored: every field within the contract's ranges, else UPSTREAM_INVALID and nothing stored.
 */
export function checkAnalysis(source: string, analysis: StoredAnalysis): StoredAnalysis {
  const parsed = storedAnalysisSchema.safeParse(analysis);
  if (!parsed.success) {
    throw new AppError('UPSTREAM_INVALID', `source ${source} answered an analysis outside the contract (${describeIssues(parsed.error)})`);
  }
  return analysis;
}
