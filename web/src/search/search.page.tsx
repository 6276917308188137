import { useQuery } from '@apollo/client/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePageTitle } from '../app/page';
import { problemOf } from '../graphql/problem';
import { SearchDocument } from '../gql/graphql';
import { percent } from '../lib/format';
import { Artwork } from './artwork';

const LIMIT = 20;

/** Where a result leads: its track page, with the names that let the API find it again later. */
export function trackPath(trackKey: string, hint?: { artist: string; trackName: string }): string {
  const path = `/track/${encodeURIComponent(trackKey)}`;
  if (!hint) return path;
  return `${path}?${new URLSearchParams({ artist: hint.artist, track: hint.trackName }).toString()}`;
}

/** Search over every source the server has enabled; the query lives in the URL (?q=&artist=). */
export function SearchPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q')?.trim() ?? '';
  const artist = params.get('artist')?.trim() ?? '';
  usePageTitle(q ? `Search: ${q}` : 'Search');

  const [track, setTrack] = useState(q);
  const [byArtist, setByArtist] = useState(artist);
  // Back and forward change the URL: the fields follow it.
  useEffect(() => {
    setTrack(q);
    setByArtist(artist);
  }, [q, artist]);

  const { data, loading, error } = useQuery(SearchDocument, {
    variables: { track: q, artist: artist || null, limit: LIMIT },
    skip: !q,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = new URLSearchParams();
    if (track.trim()) next.set('q', track.trim());
    if (byArtist.trim()) next.set('artist', byArtist.trim());
    setParams(next);
  }

  const results = q ? data?.searchPage.results : undefined;
  const failed = q ? (data?.searchPage.failedSources ?? []) : [];
  return (
    <section>
      <h1 id="search-title" tabIndex={-1}>
        Search
      </h1>
      <form className="search-form" role="search" onSubmit={submit}>
        <div className="field grow">
          <label htmlFor="search-track">Search</label>
          <input
            id="search-track"
            name="q"
            type="search"
            placeholder="A title, e.g. Money"
            value={track}
            onChange={(e) => setTrack(e.target.value)}
            maxLength={300}
            required
          />
        </div>
        <div className="field">
          <label htmlFor="search-artist">Artist (optional)</label>
          <input id="search-artist" name="artist" type="text" value={byArtist} onChange={(e) => setByArtist(e.target.value)} maxLength={300} />
        </div>
        <button type="submit">Search</button>
      </form>

      <p className="status" role="status">
        {loading ? 'Searching…' : results ? `${results.length === 0 ? 'No' : results.length} result${results.length === 1 ? '' : 's'} for “${q}”.` : ''}
      </p>
      {failed.length > 0 && (
        <div className="notice warning" role="alert" aria-label="Sources that could not be searched">
          <p>
            {results && results.length === 0 ? 'Nothing found, but not every source could be asked: ' : 'Some sources could not be asked: '}
            the results may be incomplete.
          </p>
          <ul>
            {failed.map((f) => (
              <li key={f.source}>
                <strong>{f.source}</strong>: {f.message} <span className="muted">({f.code})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          Search failed: {problemOf(error).message}
        </p>
      )}
      {results && results.length > 0 && (
        <ol className="results" aria-label="Search results">
          {results.map((r) => (
            <li key={r.trackKey}>
              <Link to={trackPath(r.trackKey, r)} className="result">
                <Artwork url={r.thumbnailUrl} name={r.artist} />
                <span className="result-text">
                  <span className="result-title">{r.trackName}</span>
                  <span className="result-artist">{r.artist}</span>
                </span>
                <span className="result-score" title="How closely the result matches the search">
                  match {percent(r.match_score)}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
