import { AppError } from '../../../src/core/errors';
import { tooLarge } from '../../../src/uploads/upload.receiver';
import { answerOf, byteSize, describeProblem } from '../../../web/src/upload/upload.answer';

const none = { location: null, retryAfter: null };
/** The body the REST edge writes for an AppError (`{success:false, error:{code,message}}`). */
const refusal = (error: AppError): string => JSON.stringify({ success: false, error: { code: error.code, message: error.message } });

describe('the answers of the upload, as the Analyse a file page reads them', () => {
  it('when 200, then the analysed track, named as the analysis names it', () => {
    const body = JSON.stringify({ success: true, data: { trackKey: 'abc123', artist: 'Click Band', trackName: 'Metronome', tempo: 120.1 } });
    expect(answerOf(200, body, { location: '/api/audio/analysis/abc123', retryAfter: null })).toEqual({
      kind: 'done',
      analysis: { trackKey: 'abc123', artist: 'Click Band', trackName: 'Metronome' },
    });
  });

  it('when 202, then where to ask and when: Retry-After over the body, the trackKey of the body or else of the Location', () => {
    const body = JSON.stringify({ success: true, data: null, trackKey: 'abc123', status: 'queued', queuePosition: 3, retryAfter: 5 });
    expect(answerOf(202, body, { location: '/api/audio/analysis/abc123', retryAfter: '4' })).toEqual({
      kind: 'pending',
      trackKey: 'abc123',
      location: '/api/audio/analysis/abc123',
      retryAfterS: 4,
      status: 'queued',
      queuePosition: 3,
    });
    // A poll of the Location: no trackKey in the body, no Location header; the URL asked names it.
    const polled = answerOf(202, JSON.stringify({ success: true, data: null, status: 'processing', queuePosition: null, retryAfter: 2 }), none, '/api/audio/analysis/k%2F1');
    expect(polled).toMatchObject({ kind: 'pending', trackKey: 'k/1', location: '/api/audio/analysis/k%2F1', retryAfterS: 2, status: 'processing', queuePosition: null });
  });

  it('when the API refuses, then its code and message; when the body is not the API’s, then the status', () => {
    expect(answerOf(415, refusal(new AppError('UNSUPPORTED_MEDIA', 'not audio')), none)).toEqual({ kind: 'failed', problem: { status: 415, code: 'UNSUPPORTED_MEDIA', message: 'not audio' } });
    expect(answerOf(502, '<html>Bad Gateway</html>', none)).toEqual({ kind: 'failed', problem: { status: 502, message: 'the server answered 502' } });
    expect(answerOf(429, refusal(new AppError('RATE_LIMITED', 'slow down')), { location: null, retryAfter: '7' })).toMatchObject({ problem: { retryAfterS: 7 } });
    // A 200 without an analysis in it is not taken for one.
    expect(answerOf(200, JSON.stringify({ success: true, data: null }), none).kind).toBe('failed');
  });

  it('says the size limit of a 413 from the message the server writes, in MiB', () => {
    const answer = answerOf(413, refusal(tooLarge(100 * 1024 * 1024)), none);
    expect(answer.kind === 'failed' && describeProblem(answer.problem)).toBe('This file is too large: the server accepts files of up to 100 MiB.');
    // A 413 from elsewhere (a proxy in front) still says what it means.
    expect(describeProblem({ status: 413, message: 'the server answered 413' })).toBe('This file is too large for the server: the server answered 413.');
  });

  it('says what each refusal means for the file, with the server’s reason', () => {
    expect(describeProblem({ status: 415, code: 'UNSUPPORTED_MEDIA', message: 'the upload is not audio' })).toMatch(/^This file is not audio the server can read \(.+\): the upload is not audio\.$/);
    expect(describeProblem({ status: 422, code: 'AUDIO_UNDECODABLE', message: 'truncated' })).toBe('The audio in this file could not be decoded (it may be cut short or damaged): truncated.');
    expect(describeProblem({ status: 400, code: 'INVALID_ARGUMENT', message: 'the body is empty' })).toBe('The upload was refused: the body is empty.');
    expect(describeProblem({ status: 429, code: 'RATE_LIMITED', message: 'x', retryAfterS: 7 })).toBe('Too many requests with this key. Try again in 7 s.');
    expect(describeProblem({ status: 0, message: 'the connection failed' })).toMatch(/^The upload did not reach the server.*: the connection failed\. /);
    expect(describeProblem({ status: 503, code: 'UPSTREAM_UNAVAILABLE', message: 'busy' })).toBe('The server failed to analyse the file: busy. Try again later.');
  });

  it('writes sizes as people read them', () => {
    expect(byteSize(512)).toBe('512 bytes');
    expect(byteSize(1536)).toBe('1.5 KiB');
    expect(byteSize(705_644)).toBe('689 KiB');
    expect(byteSize(2 * 1024 * 1024)).toBe('2 MiB');
    expect(byteSize(5.25 * 1024 * 1024)).toBe('5.3 MiB');
  });
});
