import { answerOf, UPLOAD_URL, type Answer } from './upload.answer';

export interface UploadRequest {
  file: File;
  artist: string;
  track: string;
  apiKey: string | null;
  /** Bytes of the request body sent so far, of its total. */
  onProgress(sent: number, total: number): void;
  /** The whole body is sent: the server is reading and analysing it. */
  onSent(): void;
  signal: AbortSignal;
}

const aborted = (): DOMException => new DOMException('The upload was cancelled', 'AbortError');

function headersOf(apiKey: string | null): Record<string, string> {
  return { Accept: 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) };
}

/**
 * Sends the file as multipart/form-data (fields first, then `file`) with XMLHttpRequest, whose
 * upload events report progress, which fetch() does not. Resolves to the answer, whatever its
 * status; rejects with an AbortError when `signal` aborts.
 */
export function sendUpload(request: UploadRequest): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (request.signal.aborted) {
      reject(aborted());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_URL);
    for (const [name, value] of Object.entries(headersOf(request.apiKey))) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) request.onProgress(e.loaded, e.total);
    });
    xhr.upload.addEventListener('load', () => request.onSent());
    xhr.addEventListener('load', () =>
      resolve(answerOf(xhr.status, xhr.responseText, { location: xhr.getResponseHeader('Location'), retryAfter: xhr.getResponseHeader('Retry-After') })),
    );
    xhr.addEventListener('error', () => resolve({ kind: 'failed', problem: { status: 0, message: 'the connection failed or was closed before an answer came' } }));
    xhr.addEventListener('abort', () => reject(aborted()));
    request.signal.addEventListener('abort', () => xhr.abort(), { once: true });

    const form = new FormData();
    // Before the file: the server has the names when the audio arrives (it takes them after as well).
    if (request.artist.trim()) form.append('artist', request.artist.trim());
    if (request.track.trim()) form.append('track', request.track.trim());
    form.append('file', request.file, request.file.name);
    xhr.send(form);
  });
}

/** Waits `seconds`, or rejects with an AbortError when `signal` aborts first. */
function sleep(seconds: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(aborted());
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, seconds * 1000);
    const stop = (): void => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Never sooner than a second, never more than a minute between two asks, whatever Retry-After says. */
const MIN_WAIT_S = 1;
const MAX_WAIT_S = 60;

/**
 * Asks the analysis a 202 named (its Location) after each Retry-After, until it is done or
 * fails; `onPending` hears where it stands after each ask.
 */
export async function waitForAnalysis(first: Extract<Answer, { kind: 'pending' }>, apiKey: string | null, signal: AbortSignal, onPending: (answer: Extract<Answer, { kind: 'pending' }>) => void): Promise<Exclude<Answer, { kind: 'pending' }>> {
  let pending = first;
  for (;;) {
    await sleep(Math.min(MAX_WAIT_S, Math.max(MIN_WAIT_S, pending.retryAfterS)), signal);
    let answer: Answer;
    try {
      const res = await fetch(pending.location, { headers: headersOf(apiKey), signal });
      answer = answerOf(res.status, await res.text(), { location: res.headers.get('Location'), retryAfter: res.headers.get('Retry-After') }, pending.location);
    } catch (error) {
      if (signal.aborted) throw aborted();
      answer = { kind: 'failed', problem: { status: 0, message: error instanceof Error ? error.message : String(error) } };
    }
    if (answer.kind !== 'pending') return answer;
    pending = { ...answer, trackKey: pending.trackKey };
    onPending(pending);
  }
}
