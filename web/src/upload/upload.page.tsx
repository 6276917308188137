import { useApolloClient } from '@apollo/client/react';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { usePageTitle } from '../app/page';
import { trackPath } from '../search/search.page';
import { useSession } from '../session/session.context';
import { byteSize, describeProblem, type Answer, type UploadProblem } from './upload.answer';
import { sendUpload, waitForAnalysis } from './upload.request';

type Phase = 'idle' | 'uploading' | 'analysing';
type Pending = Extract<Answer, { kind: 'pending' }>;
/** Where the user stopped: during the upload, once the file was sent, or while a 202's analysis ran. */
type Stopped = { at: 'upload' } | { at: 'sent' } | { at: 'analysis'; trackKey: string };

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

function pendingText(pending: Pending | null): string {
  if (pending?.status === 'queued') return `Analysis queued${pending.queuePosition !== null ? ` (${pending.queuePosition} ahead)` : ''}…`;
  return 'Analysing the audio…';
}

function UploadProgress({ sent, total, phase }: { sent: number; total: number; phase: Phase }) {
  const pct = phase === 'analysing' ? 100 : total > 0 ? Math.min(100, Math.round((sent / total) * 100)) : 0;
  const amount = `${byteSize(phase === 'analysing' ? total : sent)} of ${byteSize(total)}`;
  return (
    <div className="upload-progress">
      <div className="upload-progress-label">
        {phase === 'analysing' ? 'Uploaded' : 'Uploading'}: {pct} % <span className="muted">({amount})</span>
      </div>
      <div role="progressbar" aria-label="Upload progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={`${pct} % (${amount})`}>
        <svg className="meter" width="100%" height="12" aria-hidden="true" focusable="false">
          <rect className="meter-track" width="100%" height="12" rx="6" />
          <rect className="meter-fill" width={`${pct}%`} height="12" rx="6" />
        </svg>
      </div>
    </div>
  );
}

/**
 * Analyse a file: drop or choose an audio file, name it if its tags do not, and send it to
 * POST /api/audio/analyses with the signed-in key. The page shows the upload's progress, then
 * waits for the analysis (asking the Location of a 202 after each Retry-After) and opens the
 * track's page. A refusal is said in words beside the form, which stays ready for another try.
 */
export function UploadPage() {
  usePageTitle('Analyse a file');
  const session = useSession();
  const navigate = useNavigate();
  const client = useApolloClient();
  const [file, setFile] = useState<File | null>(null);
  const [artist, setArtist] = useState('');
  const [track, setTrack] = useState('');
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<Phase>('idle');
  const [progress, setProgress] = useState({ sent: 0, total: 0 });
  const [pending, setPending] = useState<Pending | null>(null);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const [stopped, setStopped] = useState<Stopped | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const running = useRef<AbortController | null>(null);
  const busy = phase !== 'idle';

  // Leaving the page stops the upload, or the waiting (the analysis itself goes on).
  useEffect(() => () => running.current?.abort(), []);
  // A file dropped beside the zone would make the browser open it, leaving the page.
  useEffect(() => {
    const keep = (e: globalThis.DragEvent): void => e.preventDefault();
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);

  function choose(files: FileList | null): void {
    setFile(files?.[0] ?? null);
    setProblem(null);
    setStopped(null);
  }

  function over(e: DragEvent<HTMLDivElement>): void {
    e.preventDefault();
    e.dataTransfer.dropEffect = busy ? 'none' : 'copy';
    if (!busy) setDragging(true);
  }

  function drop(e: DragEvent<HTMLDivElement>): void {
    e.preventDefault();
    setDragging(false);
    if (busy || e.dataTransfer.files.length === 0) return;
    // The input shows the dropped file and satisfies `required`, as if it had been chosen.
    if (input.current) input.current.files = e.dataTransfer.files;
    choose(e.dataTransfer.files);
  }

  function fail(failure: UploadProblem): void {
    setPhase('idle');
    setPending(null);
    if (failure.status === 401) {
      session.signOut(`The API refused the key: ${failure.message}. Sign in again.`);
      return;
    }
    setProblem(failure);
  }

  async function submit(e: FormEvent<HTMLFormElement>): Promise<void> {
    e.preventDefault();
    if (!file || busy) return;
    const controller = new AbortController();
    running.current = controller;
    let reached: Stopped = { at: 'upload' };
    setProblem(null);
    setStopped(null);
    setPending(null);
    setProgress({ sent: 0, total: file.size });
    setPhase('uploading');
    try {
      const sent = await sendUpload({
        file,
        artist,
        track,
        apiKey: session.apiKey(),
        onProgress: (sent, total) => setProgress({ sent, total }),
        onSent: () => {
          reached = { at: 'sent' };
          setPhase('analysing');
        },
        signal: controller.signal,
      });
      let answer: Exclude<Answer, Pending>;
      if (sent.kind === 'pending') {
        reached = { at: 'analysis', trackKey: sent.trackKey };
        setPhase('analysing');
        setPending(sent);
        answer = await waitForAnalysis(sent, session.apiKey(), controller.signal, setPending);
      } else answer = sent;
      if (answer.kind === 'done') {
        // A new stored analysis: the lists browse and similar answered before may lack it.
        client.cache.evict({ id: 'ROOT_QUERY', fieldName: 'tracks' });
        client.cache.evict({ id: 'ROOT_QUERY', fieldName: 'similar' });
        client.cache.gc();
        void navigate(trackPath(answer.analysis.trackKey, answer.analysis));
        return;
      }
      fail(answer.problem);
    } catch (error) {
      if (!isAbort(error)) {
        fail({ status: 0, message: error instanceof Error ? error.message : String(error) });
        return;
      }
      setPhase('idle');
      setPending(null);
      setStopped(reached);
    } finally {
      if (running.current === controller) running.current = null;
    }
  }

  return (
    <section>
      <h1 id="upload-title" tabIndex={-1}>
        Analyse a file
      </h1>
      <p className="lead">
        Send an audio file of your own (a demo, a stem, a track no source has) to be analysed like any other track: tempo, key, meter, descriptors, moods and
        its timeline. The file is analysed, then deleted; only the analysis is kept.
      </p>
      <form className="upload-form" aria-labelledby="upload-title" onSubmit={(e) => void submit(e)}>
        <div className={`drop-zone${dragging ? ' dragging' : ''}`} onDragEnter={over} onDragOver={over} onDragLeave={() => setDragging(false)} onDrop={drop}>
          <label htmlFor="upload-file">Audio file</label>
          <p className="muted" id="upload-file-hint">
            Drop a file here, or choose one: MP3, FLAC, WAV, Ogg, M4A and the other formats the server reads.
          </p>
          <input id="upload-file" ref={input} name="file" type="file" accept="audio/*" aria-describedby="upload-file-hint" onChange={(e) => choose(e.target.files)} disabled={busy} required />
          {file && (
            <p className="chosen-file">
              <strong>{file.name}</strong> <span className="muted">· {byteSize(file.size)}</span>
            </p>
          )}
        </div>
        <div className="inline-form">
          <div className="field">
            <label htmlFor="upload-artist">Artist (optional)</label>
            <input id="upload-artist" name="artist" type="text" value={artist} onChange={(e) => setArtist(e.target.value)} maxLength={300} disabled={busy} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="upload-track">Track (optional)</label>
            <input id="upload-track" name="track" type="text" value={track} onChange={(e) => setTrack(e.target.value)} maxLength={300} disabled={busy} autoComplete="off" />
          </div>
        </div>
        <p className="muted field-note">Without names, the file&apos;s tags name it, else its file name (&ldquo;Artist - Title.mp3&rdquo;).</p>
        <div className="actions">
          <button type="submit" disabled={busy || !file}>
            Analyse
          </button>
          {busy && (
            <button type="button" className="secondary" onClick={() => running.current?.abort()}>
              {phase === 'uploading' ? 'Cancel upload' : 'Stop waiting'}
            </button>
          )}
        </div>
      </form>

      {busy && <UploadProgress sent={progress.sent} total={progress.total} phase={phase} />}
      <p className="progress status" role="status">
        {phase === 'analysing' && (
          <>
            <span className="spinner" aria-hidden="true" />
            {pendingText(pending)}
          </>
        )}
        {phase === 'idle' && stopped?.at === 'upload' && 'The upload was cancelled.'}
        {phase === 'idle' && stopped?.at === 'sent' && 'Stopped waiting. The whole file had been sent: the server may analyse it still, and Browse will list it then.'}
        {phase === 'idle' && stopped?.at === 'analysis' && 'Stopped waiting; the analysis goes on on the server.'}
      </p>
      {phase === 'idle' && stopped?.at === 'analysis' && (
        <p>
          <Link to={trackPath(stopped.trackKey)}>Open the track&apos;s page</Link> to see it when it is done.
        </p>
      )}
      {problem && (
        <div className="error" role="alert">
          <p>
            {describeProblem(problem)} {problem.code && <span className="muted">({problem.code})</span>}
          </p>
        </div>
      )}
    </section>
  );
}
