import { useQuery } from '@apollo/client/react';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../app/page';
import { problemOf } from '../graphql/problem';
import { BrowseTracksDocument, type BrowseTracksQuery, type TrackOrderField } from '../gql/graphql';
import { useVocabulary, type Vocabulary } from '../lib/vocabulary';
import { trackPath } from '../search/search.page';
import { EMPTY_FORM, browseVocabulary, formFromParams, paramsFromForm, variablesOfForm, type BrowseForm, type BrowseVocabulary } from './browse.filter';

const PAGE = 20;

type Node = BrowseTracksQuery['tracks']['edges'][number]['node'];

/** A small bar per mood: how happy, sad, relaxed … a track is, at a glance. */
function MoodStrip({ values }: { values: Node['descriptorValues'] }) {
  const moods = values.filter((d) => d.group === 'MOOD');
  const label = moods.map((m) => `${m.name} ${m.value.toFixed(2)}`).join(', ');
  return (
    <svg className="mood-strip" viewBox={`0 0 ${moods.length * 22} 24`} role="img" aria-label={`Moods: ${label}`}>
      {moods.map((m, i) => {
        const h = Math.max(1, m.value * 22);
        return <rect key={m.name} className={`bar tone-${i % 2} mood-${m.name}`} x={i * 22 + 2} y={23 - h} width={18} height={h} rx={2} />;
      })}
    </svg>
  );
}

function Filters({ initial, choices, pitchClasses, onApply }: { initial: BrowseForm; choices: BrowseVocabulary; pitchClasses: readonly string[]; onApply: (form: BrowseForm) => void }) {
  const [form, setForm] = useState(initial);
  useEffect(() => setForm(initial), [initial]);
  const id = useId();
  const set = <K extends keyof BrowseForm>(key: K, value: BrowseForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onApply(form);
  }

  return (
    <form className="filters" onSubmit={submit} aria-label="Filters">
      <fieldset>
        <legend>Mood</legend>
        <div className="field">
          <label htmlFor={`${id}-mood`}>Mood</label>
          <select id={`${id}-mood`} value={form.mood} onChange={(e) => set('mood', e.target.value)}>
            <option value="">Any mood</option>
            {choices.moods.map(([name, label]) => (
              <option key={name} value={name}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-mood-min`}>At least (0–1)</label>
          <input
            id={`${id}-mood-min`}
            type="number"
            min={0}
            max={1}
            step={0.05}
            inputMode="decimal"
            value={form.moodMin}
            disabled={!form.mood}
            onChange={(e) => set('moodMin', e.target.value)}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Tempo (BPM)</legend>
        <div className="field">
          <label htmlFor={`${id}-tempo-min`}>From</label>
          <input id={`${id}-tempo-min`} type="number" min={0} max={1000} step={1} inputMode="numeric" value={form.tempoMin} onChange={(e) => set('tempoMin', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-tempo-max`}>To</label>
          <input id={`${id}-tempo-max`} type="number" min={0} max={1000} step={1} inputMode="numeric" value={form.tempoMax} onChange={(e) => set('tempoMax', e.target.value)} />
        </div>
      </fieldset>
      <fieldset className="keys">
        <legend>Key</legend>
        <div className="key-grid">
          {pitchClasses.map((name, pc) => (
            <label key={name} className="check">
              <input
                type="checkbox"
                checked={form.keys.includes(pc)}
                onChange={(e) => set('keys', e.target.checked ? [...form.keys, pc].sort((a, b) => a - b) : form.keys.filter((k) => k !== pc))}
              />
              {name}
            </label>
          ))}
        </div>
        <div className="field">
          <label htmlFor={`${id}-mode`}>Mode</label>
          <select id={`${id}-mode`} value={form.mode} onChange={(e) => set('mode', e.target.value as BrowseForm['mode'])}>
            <option value="">Major or minor</option>
            <option value="1">Major</option>
            <option value="0">Minor</option>
          </select>
        </div>
      </fieldset>
      <fieldset>
        <legend>Tag</legend>
        <div className="field">
          <label htmlFor={`${id}-tag`}>Tag</label>
          <select id={`${id}-tag`} value={form.tag} onChange={(e) => set('tag', e.target.value)}>
            <option value="">Any tag</option>
            {choices.tags.map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-tag-top`}>Among its top (1–50)</label>
          <input
            id={`${id}-tag-top`}
            type="number"
            min={1}
            max={50}
            step={1}
            inputMode="numeric"
            value={form.tagTop}
            disabled={!form.tag}
            onChange={(e) => set('tagTop', e.target.value)}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>Order</legend>
        <div className="field">
          <label htmlFor={`${id}-order`}>Order by</label>
          <select id={`${id}-order`} value={form.order} onChange={(e) => set('order', e.target.value as TrackOrderField)}>
            {choices.orders.map(([value, label]) =>
              value === 'TAG' ? (
                // The chosen tag's probability; with no tag chosen there is none to order by.
                <option key={value} value={value} disabled={!form.tag}>
                  {form.tag ? `Probability of “${form.tag}”` : `${label} (choose a tag)`}
                </option>
              ) : (
                <option key={value} value={value}>
                  {label}
                </option>
              ),
            )}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-direction`}>Direction</label>
          <select id={`${id}-direction`} value={form.direction} onChange={(e) => set('direction', e.target.value as BrowseForm['direction'])}>
            <option value="DESC">Highest or newest first</option>
            <option value="ASC">Lowest or oldest first</option>
          </select>
        </div>
      </fieldset>
      <div className="actions">
        <button type="submit">Apply filters</button>
        <button type="button" className="secondary" onClick={() => onApply(EMPTY_FORM)}>
          Clear
        </button>
      </div>
    </form>
  );
}

/** Stored analyses by mood, tempo, key and tag, a page at a time; the filters live in the URL. */
export function BrowsePage() {
  usePageTitle('Browse');
  const { vocabulary, error } = useVocabulary();
  return (
    <section>
      <h1 id="browse-title" tabIndex={-1}>
        Browse
      </h1>
      <p className="lead">Every analysed track, filtered by mood, tempo, key and, for tracks the trained models analysed, their tags.</p>
      {error && (
        <p className="error" role="alert">
          Browsing failed: {problemOf(error).message}
        </p>
      )}
      {vocabulary && <Browse vocabulary={vocabulary} />}
    </section>
  );
}

function Browse({ vocabulary }: { vocabulary: Vocabulary }) {
  const [params, setParams] = useSearchParams();
  const query = params.toString();
  const choices = useMemo(() => browseVocabulary(vocabulary.descriptors, vocabulary.taggerTags), [vocabulary]);
  const form = useMemo(() => formFromParams(new URLSearchParams(query), choices), [query, choices]);
  const variables = useMemo(() => ({ ...variablesOfForm(form), first: PAGE }), [form]);
  // A filter asked before shows its last answer at once, and is asked again: analyses arrive
  // while the page is open, from other clients too.
  const { data, loading, error, fetchMore } = useQuery(BrowseTracksDocument, { variables, notifyOnNetworkStatusChange: true, fetchPolicy: 'cache-and-network' });
  const [loadingMore, setLoadingMore] = useState(false);
  const tracks = data?.tracks;

  async function more() {
    if (!tracks?.pageInfo.endCursor) return;
    setLoadingMore(true);
    try {
      await fetchMore({ variables: { after: tracks.pageInfo.endCursor } });
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <>
      <Filters initial={form} choices={choices} pitchClasses={vocabulary.pitchClasses} onApply={(f) => setParams(paramsFromForm(f))} />
      <p className="status" role="status">
        {loading && !loadingMore ? 'Loading tracks…' : tracks ? `${tracks.totalCount} track${tracks.totalCount === 1 ? '' : 's'} match.` : ''}
      </p>
      {error && (
        <p className="error" role="alert">
          Browsing failed: {problemOf(error).message}
        </p>
      )}
      {tracks && tracks.edges.length > 0 && (
        <ol className="browse-list" aria-label="Tracks">
          {tracks.edges.map(({ node }) => (
            <li key={node.trackKey}>
              <Link to={trackPath(node.trackKey)} className="browse-title">
                <span className="result-title">{node.trackName}</span>
                <span className="result-artist">{node.artist}</span>
              </Link>
              <span className="browse-facts">
                {Math.round(node.tempo)} BPM · {node.keyString} · {node.timeSignature}/4 · energy {node.energy.toFixed(2)}
              </span>
              <MoodStrip values={node.descriptorValues} />
            </li>
          ))}
        </ol>
      )}
      {tracks?.pageInfo.hasNextPage && (
        <button type="button" className="more" onClick={() => void more()} disabled={loadingMore}>
          {loadingMore ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
