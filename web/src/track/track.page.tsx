import { useQuery } from '@apollo/client/react';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { usePageTitle } from '../app/page';
import { BarChart } from '../charts/bar.chart';
import { problemOf } from '../graphql/problem';
import { SimilarTracksDocument, TrackAnalysisDocument, TrackStatusDocument, TrackTempoInRangeDocument, type TrackDetailFragment } from '../gql/graphql';
import { clock, percent } from '../lib/format';
import { labelOf, useVocabulary, type Vocabulary } from '../lib/vocabulary';
import { EMPTY_FORM, paramsFromForm } from '../browse/browse.filter';
import { trackPath } from '../search/search.page';
import { type BpmRange, BpmRangeForm, rangeLabel, storeRange, storedRange } from './bpm-range';
import { TimelineChart } from './timeline.chart';
import { methodLabel } from './method-label';

/** How often the page asks how a running analysis stands (the API suggests retryAfter; a person wants sooner). */
const POLL_MS = 1000;

function Stat({ label, value, note, confidence }: { label: string; value: string; note?: string; confidence?: number }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value">{value}</span>
        {note && <span className="stat-note">{note}</span>}
        {confidence !== undefined && <span className="stat-confidence">confidence {percent(confidence)}</span>}
      </dd>
    </div>
  );
}

function Similar({ trackKey }: { trackKey: string }) {
  // Off: every artist, as the API answers by default; on: "more like this, by someone else".
  const [otherArtists, setOtherArtists] = useState(false);
  const { data, loading, error } = useQuery(SimilarTracksDocument, { variables: { trackKey, first: 8, otherArtists } });
  return (
    <section className="panel" aria-labelledby="similar-title">
      <h2 id="similar-title">Similar tracks</h2>
      <label className="check">
        <input type="checkbox" checked={otherArtists} onChange={(e) => setOtherArtists(e.target.checked)} />
        Other artists only
      </label>
      {loading && <p role="status">Finding similar tracks…</p>}
      {error && <p className="error">Similar tracks are not available: {problemOf(error).message}</p>}
      {data && data.similar.length === 0 && <p>No other analysed track yet.</p>}
      {data && data.similar.length > 0 && (
        <ol className="similar">
          {data.similar.map(({ track, distance }) => (
            <li key={track.trackKey}>
              <Link to={trackPath(track.trackKey)}>
                <span className="result-title">{track.trackName}</span> <span className="result-artist">{track.artist}</span>
              </Link>
              <span className="similar-facts">
                {Math.round(track.tempo)} BPM · {track.keyString} · distance {distance.toFixed(2)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** How many of the tagger's 50 tags the page lists. */
const TOP_TAGS = 10;

/** Where the browse page lists the tracks with a tag among their most probable (its form's default rank), the most probable first. */
function tagBrowsePath(tag: string): string {
  return `/browse?${paramsFromForm({ ...EMPTY_FORM, tag, order: 'TAG' }).toString()}`;
}

/**
 * The auto-tagger's most probable tags, when trained models made the analysis (none otherwise);
 * each tag the API lists (`known`) links to the tracks that have it among their most probable.
 */
function Tags({ tags, known }: { tags: TrackDetailFragment['tags']; known: readonly string[] | undefined }) {
  if (tags.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="tags-title">
      <h2 id="tags-title">Tags</h2>
      <p className="tags-note">
        The auto-tagger’s {Math.min(TOP_TAGS, tags.length)} most probable of its {tags.length} tags. A tag is a listener’s word, not a class: most stay under 20 %.
      </p>
      <ol className="tags">
        {tags.slice(0, TOP_TAGS).map(({ name, probability }) => (
          <li key={name}>
            {known?.includes(name) ? (
              <Link className="tag-name" to={tagBrowsePath(name)} title={`Tracks with ${name} among their ${EMPTY_FORM.tagTop} most probable tags`}>
                {name}
              </Link>
            ) : (
              <span className="tag-name">{name}</span>
            )}{' '}
            <span className="tag-probability">{percent(probability)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The descriptors and moods of an analysis as bars, labelled as the API's vocabulary labels them. */
function DescriptorCharts({ analysis, vocabulary }: { analysis: TrackDetailFragment; vocabulary: Vocabulary }) {
  const bars = (group: 'DESCRIPTOR' | 'MOOD') =>
    analysis.descriptorValues
      .filter((d) => d.group === group)
      .map(({ name, value }, i) => ({ label: labelOf(vocabulary, name), value, tone: group === 'MOOD' ? `mood-${name} tone-${i % 2}` : `tone-${i % 2}` }));
  return (
    <div className="charts">
      <BarChart title="Descriptors" bars={bars('DESCRIPTOR')} />
      <BarChart title="Moods" bars={bars('MOOD')} />
    </div>
  );
}

/** The key as DJ software writes it: Camelot and Open Key ("Camelot 8A · Open Key 1m"), where the analysis has one. */
function keyNames(analysis: TrackDetailFragment): string | undefined {
  return analysis.camelot && analysis.openKey ? `Camelot ${analysis.camelot} · Open Key ${analysis.openKey}` : undefined;
}

/**
 * The tempo counted in the BPM range this browser keeps (none: nothing asked). The range is kept
 * once the API has counted a tempo in it; what it refuses is said, and the kept range stays.
 */
function useTempoInRange(trackKey: string): { range: BpmRange | null; setRange: (range: BpmRange | null) => void; note?: string; refused?: string } {
  const [range, setRange] = useState<BpmRange | null>(storedRange);
  const { data, error } = useQuery(TrackTempoInRangeDocument, { variables: { trackKey, min: range?.min ?? 0, max: range?.max ?? 0 }, skip: range === null });
  const counted = range ? data?.analysis?.tempoInRange : undefined;
  useEffect(() => {
    if (counted) storeRange(range);
  }, [counted, range]);
  const change = (next: BpmRange | null) => {
    if (next === null) storeRange(null);
    setRange(next);
  };
  return {
    range,
    setRange: change,
    note: range && counted ? `${counted.tempo.toFixed(1)} BPM in ${rangeLabel(range)} (confidence ${percent(counted.confidence)})` : undefined,
    refused: error ? problemOf(error).message : undefined,
  };
}

function Analysis({ analysis }: { analysis: TrackDetailFragment }) {
  const { vocabulary, error } = useVocabulary();
  const inRange = useTempoInRange(analysis.trackKey);
  return (
    <>
      <dl className="stats">
        <Stat label="Tempo" value={`${analysis.tempo.toFixed(1)} BPM`} note={inRange.note} confidence={analysis.confidence.tempo} />
        <Stat label="Key" value={analysis.keyString} note={keyNames(analysis)} confidence={analysis.confidence.key} />
        <Stat label="Meter" value={`${analysis.timeSignature}/4`} confidence={analysis.confidence.timeSignature} />
        <Stat label="Loudness" value={`${analysis.loudness.toFixed(1)} LUFS`} />
        <Stat label="Duration" value={clock(analysis.duration_ms / 1000)} />
      </dl>
      <BpmRangeForm range={inRange.range} refused={inRange.refused} onChange={inRange.setRange} />
      <p className="method">
        Moods, valence, danceability and instrumentalness by <strong>{methodLabel(analysis.method)}</strong> · <span className="engine">{analysis.engine}</span>
      </p>
      {error && <p className="error">The descriptors cannot be drawn: {problemOf(error).message}</p>}
      {vocabulary && (
        <>
          <DescriptorCharts analysis={analysis} vocabulary={vocabulary} />
          <TimelineChart timeline={analysis.timeline} durationMs={analysis.duration_ms} pitchClasses={vocabulary.pitchClasses} />
        </>
      )}
      <Tags tags={analysis.tags} known={vocabulary?.taggerTags} />
      <Similar trackKey={analysis.trackKey} />
    </>
  );
}

/**
 * One track: its analysis drawn as charts, and similar tracks. Asking for the analysis starts it
 * when the track is not stored yet; while it runs (the API answers null after its wait), the page
 * shows where it stands and asks again every second.
 */
export function TrackPage() {
  const { trackKey = '' } = useParams();
  const [params] = useSearchParams();
  const artist = params.get('artist');
  const track = params.get('track');

  const main = useQuery(TrackAnalysisDocument, { variables: { trackKey, artist, track } });
  const { refetch } = main;
  // null: the analysis outlasted the server's wait and goes on.
  const pending = main.data?.analysis === null;
  const watching = (main.loading || pending) && main.error === undefined;
  const status = useQuery(TrackStatusDocument, { variables: { trackKey }, skip: !watching, pollInterval: POLL_MS, fetchPolicy: 'network-only' });
  const state = status.data?.analysisStatus;
  useEffect(() => {
    if (pending && state?.status === 'DONE') void refetch();
  }, [pending, state?.status, refetch]);
  const analysis = main.data?.analysis ?? (state?.status === 'DONE' ? state.analysis : null) ?? null;
  // Neither stored nor running after it ran: it failed, and asking again says why.
  const stopped = pending && state?.status === 'UNKNOWN';

  usePageTitle(analysis ? `${analysis.trackName} by ${analysis.artist}` : track ? `${track}${artist ? ` by ${artist}` : ''}` : 'Track');

  let progress = 'Starting the analysis…';
  if (state?.status === 'QUEUED') progress = `Analysis queued${state.queuePosition !== null ? ` (${state.queuePosition} ahead)` : ''}…`;
  else if (state?.status === 'PROCESSING') progress = 'Analysing the audio…';

  return (
    <article className="track" aria-busy={!analysis && !main.error}>
      <h1 id="track-title" tabIndex={-1}>
        {analysis?.trackName ?? track ?? 'Track'}
        <span className="by">{analysis?.artist ?? artist ?? ''}</span>
      </h1>
      {main.error && (
        <div className="error" role="alert">
          <p>{problemOf(main.error).code === 'TRACK_NOT_FOUND' ? 'This track is not known here yet.' : `The analysis failed: ${problemOf(main.error).message}`}</p>
          <p>
            <Link to="/">Search for it</Link> to analyse it.
          </p>
        </div>
      )}
      {!analysis && !main.error && !stopped && (
        <p className="progress" role="status">
          <span className="spinner" aria-hidden="true" />
          {progress}
        </p>
      )}
      {stopped && (
        <div className="error" role="alert">
          <p>The analysis stopped without a result.</p>
          <button type="button" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      )}
      {analysis && <Analysis analysis={analysis} />}
    </article>
  );
}
