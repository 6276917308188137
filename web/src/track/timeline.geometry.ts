/** A span of the file, seconds from its start. */
export interface Span {
  start: number;
  duration: number;
}

/**
 * The stretch of the file the timeline covers: from its first beat, bar or section to the end of
 * its last (the analysed window of a long file), else the whole file.
 */
export function timelineDomain(spans: readonly Span[], durationS: number): { from: number; to: number } {
  let from = Infinity;
  let to = -Infinity;
  for (const s of spans) {
    from = Math.min(from, s.start);
    to = Math.max(to, s.start + s.duration);
  }
  if (!Number.isFinite(from) || !(to > from)) return { from: 0, to: Math.max(durationS, 1) };
  // The whole file when the spans cover nearly all of it: no axis that starts at 0:00.4.
  if (from < 1 && to > durationS - 1) return { from: 0, to: Math.max(to, durationS) };
  return { from, to };
}

/** The index a key press moves a selection of `count` items to, or undefined for other keys. */
export function stepSelection(key: string, current: number, count: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return current < 0 ? 0 : Math.min(count - 1, current + 1);
    case 'ArrowLeft':
    case 'ArrowUp':
      return current < 0 ? 0 : Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
