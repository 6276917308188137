import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../core/errors';
import type { HttpClient } from '../http/http.client';
import { SourceHttpError, isSourceHttpError } from '../http/http.errors';
import { SUBSONIC_ERRORS, type SubsonicBody, type SubsonicEnvelope } from './subsonic.types';

export const SUBSONIC = 'subsonic';

/** The protocol version claimed with token authentication (Subsonic 1.16.1, what OpenSubsonic servers build on). */
export const TOKEN_PROTOCOL = '1.16.1';
/** Token authentication came with 1.13.0: an older server takes the password only. */
const TOKEN_SINCE: readonly number[] = [1, 13, 0];
/** Claimed with the password when the server names no version of its own. */
const PASSWORD_PROTOCOL = '1.12.0';

/** How the credentials travel: a salted MD5 token (1.13+), or the password hex-encoded (older servers). */
export type SubsonicAuthMode = 'token' | 'password';

/** What the server said of itself when it was first reached. */
export interface SubsonicServerInfo {
  /** The Subsonic API version it speaks. */
  version: string;
  /** OpenSubsonic servers: their name (`navidrome`, `gonic` …) and version. */
  type?: string;
  serverVersion?: string;
  openSubsonic: boolean;
  auth: SubsonicAuthMode;
}

export interface SubsonicClientOptions {
  /** SUBSONIC_URL: the API is under {baseUrl}/rest. */
  baseUrl: string;
  user: string;
  password: string;
  /** The `c` parameter: who is asking. */
  clientName: string;
  /** A salt per request (tests make it fixed). Default: 6 random bytes in hex. */
  salt?: () => string;
}

/** Parameters of a call, in order; a name may repeat (songId of createPlaylist). */
export type SubsonicParams = readonly (readonly [string, string])[];

/** How long a refusal of the credentials is remembered before the server is asked again, ms. */
const REFUSAL_KEPT_MS = 30_000;

/**
 * The Subsonic API over a source's HttpClient (timeouts, retries, breaker, outbound guard). The
 * credentials travel in every URL's query string, as the API wants; no URL ever leaves this
 * class in an error or a log line, and every message built from the server's words is scrubbed of
 * the password and of the token and salt of the request.
 */
export class SubsonicClient {
  private info: SubsonicServerInfo | undefined;
  /** The protocol version the calls claim once connected. */
  private claimed = TOKEN_PROTOCOL;
  private connecting: Promise<SubsonicServerInfo> | undefined;
  /** The last refusal of the credentials, said by health() until an answer succeeds. */
  private refused: { at: number; error: AppError } | undefined;
  private readonly salt: () => string;

  constructor(
    private readonly http: HttpClient,
    private readonly options: SubsonicClientOptions,
  ) {
    this.salt = options.salt ?? (() => randomBytes(6).toString('hex'));
  }

  /** What the server said of itself, once reached. */
  get server(): SubsonicServerInfo | undefined {
    return this.info;
  }

  /** Why calls fail now that the server answered (the credentials refused), or undefined. */
  refusal(): string | undefined {
    return this.refused?.error.message;
  }

  /**
   * Reaches the server once (`ping`) and finds out how it takes the credentials: a token where
   * it speaks 1.13 or later, the password where it does not (or says it cannot check a token, as
   * for LDAP accounts). Concurrent callers share the one attempt; a failed attempt is tried again
   * by the next call, except a refusal of the credentials, which is answered again for 30 s.
   */
  connect(signal: AbortSignal): Promise<SubsonicServerInfo> {
    if (this.info) return Promise.resolve(this.info);
    if (this.refused && Date.now() - this.refused.at < REFUSAL_KEPT_MS) return Promise.reject(this.refused.error);
    this.connecting ??= this.negotiate(signal).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Calls `method` (connecting first) and answers its body; a `failed` answer throws its error as an AppError. */
  async call(method: string, params: SubsonicParams, signal: AbortSignal): Promise<SubsonicBody> {
    const info = await this.connect(signal);
    const body = await this.request(method, params, info.auth, this.claimed, signal);
    if (body.status !== 'ok') throw this.failure(method, body);
    this.refused = undefined;
    return body;
  }

  /**
   * The bytes a method answers (stream, download, getCoverArt), within `maxBytes` and of a type
   * `accept` takes. A server that answers with its error envelope instead (a song removed since
   * it was found: error 70) throws that error.
   */
  async bytes(method: string, params: SubsonicParams, request: { maxBytes: number; accept: (contentType: string) => boolean }, signal: AbortSignal): Promise<Uint8Array> {
    const info = await this.connect(signal);
    const url = this.url(method, params, info.auth, this.claimed);
    let bytes: Uint8Array;
    try {
      bytes = await this.http.download(url.toString(), {
        signal,
        maxBytes: request.maxBytes,
        // Error envelopes come as JSON or XML: they are read, then told apart from audio below.
        acceptContentType: (type) => request.accept(type) || ENVELOPE_TYPES.has(type),
      });
    } catch (error) {
      throw this.remapped(method, error, { notFoundOn404: true });
    }
    const envelope = envelopeIn(bytes);
    if (envelope) {
      if (envelope.status === 'ok') throw new AppError('UPSTREAM_INVALID', `source subsonic answered ${method} with no content`);
      throw this.failure(method, envelope);
    }
    return bytes;
  }

  private async negotiate(signal: AbortSignal): Promise<SubsonicServerInfo> {
    const first = await this.request('ping', [], 'token', TOKEN_PROTOCOL, signal);
    let answer = first;
    let auth: SubsonicAuthMode = 'token';
    if (first.status !== 'ok' && takesNoToken(first)) {
      auth = 'password';
      answer = await this.request('ping', [], 'password', protocolOf(first.version), signal);
    }
    // A refusal of the credentials is remembered by failure().
    if (answer.status !== 'ok') throw this.failure('ping', answer);
    this.refused = undefined;
    const version = auth === 'token' ? TOKEN_PROTOCOL : protocolOf(answer.version);
    this.info = {
      version: typeof answer.version === 'string' ? answer.version : version,
      ...(typeof answer.type === 'string' ? { type: answer.type } : {}),
      ...(typeof answer.serverVersion === 'string' ? { serverVersion: answer.serverVersion } : {}),
      openSubsonic: answer.openSubsonic === true,
      auth,
    };
    // Later calls claim what the server speaks, never more than the token protocol.
    this.claimed = version;
    return this.info;
  }

  /** One exchange: the body whatever its status; throws only when no envelope came back. */
  private async request(method: string, params: SubsonicParams, auth: SubsonicAuthMode, version: string, signal: AbortSignal): Promise<SubsonicBody> {
    const url = this.url(method, params, auth, version);
    try {
      const res = await this.http.getJson<SubsonicEnvelope>(url, {
        signal,
        inspect: (body) => {
          if (!bodyOf(body)) throw notTheApi();
        },
      });
      return bodyOf(res.body)!;
    } catch (error) {
      // A server that answers an error with a non-2xx status still explains itself in the envelope.
      const cause = error instanceof AppError ? error.cause : undefined;
      const body = isSourceHttpError(cause) ? bodyOf(cause.body) : undefined;
      if (body && body.status !== 'ok') return body;
      throw this.remapped(method, error, { notFoundOn404: false });
    }
  }

  private url(method: string, params: SubsonicParams, auth: SubsonicAuthMode, version: string): URL {
    const url = new URL(`${this.options.baseUrl}/rest/${method}.view`);
    const q = url.searchParams;
    q.set('u', this.options.user);
    if (auth === 'token') {
      const salt = this.salt();
      q.set('t', createHash('md5').update(`${this.options.password}${salt}`, 'utf8').digest('hex'));
      q.set('s', salt);
    } else {
      q.set('p', `enc:${Buffer.from(this.options.password, 'utf8').toString('hex')}`);
    }
    q.set('v', version);
    q.set('c', this.options.clientName);
    q.set('f', 'json');
    for (const [name, value] of params) q.append(name, value);
    return url;
  }

  /** The AppError of a `failed` answer: the server's code and words, scrubbed. */
  private failure(method: string, body: SubsonicBody): AppError {
    const code = typeof body.error?.code === 'number' ? body.error.code : SUBSONIC_ERRORS.GENERIC;
    const said = this.scrub(typeof body.error?.message === 'string' && body.error.message.trim() !== '' ? body.error.message.trim() : 'no message').slice(0, 300);
    const detail = `error ${code}: ${said}`;
    if (isCredentialError(body)) {
      const error = new AppError('UPSTREAM_UNAVAILABLE', `source subsonic refused the credentials (${detail}); check SUBSONIC_USER and SUBSONIC_PASSWORD`);
      this.refused = { at: Date.now(), error };
      return error;
    }
    switch (code) {
      case SUBSONIC_ERRORS.NOT_FOUND:
        return new AppError('TRACK_NOT_FOUND', `source subsonic: the server no longer has it (${detail})`);
      case SUBSONIC_ERRORS.NOT_AUTHORISED:
        return new AppError('UPSTREAM_UNAVAILABLE', `source subsonic: the account SUBSONIC_USER may not ${method} (${detail})`);
      case SUBSONIC_ERRORS.CLIENT_MUST_UPGRADE:
      case SUBSONIC_ERRORS.SERVER_MUST_UPGRADE:
        return new AppError('UPSTREAM_UNAVAILABLE', `source subsonic does not speak our protocol version (${detail})`);
      default:
        return new AppError('UPSTREAM_UNAVAILABLE', `source subsonic answered ${method} with ${detail}`);
    }
  }

  /** An error of the HTTP layer, said for this API: an envelope it carried, a song gone (404 on stream), the rest as they are. */
  private remapped(method: string, error: unknown, options: { notFoundOn404: boolean }): unknown {
    const cause = error instanceof AppError ? error.cause : undefined;
    if (!isSourceHttpError(cause)) return error;
    const body = bodyOf(cause.body);
    if (body && body.status !== 'ok') return this.failure(method, body);
    if (options.notFoundOn404 && (cause.status === 404 || cause.status === 410)) {
      return new AppError('TRACK_NOT_FOUND', `source subsonic: the server no longer has it (HTTP ${cause.status} to ${method})`, { cause });
    }
    if (method === 'ping' && cause.status === 404) {
      return new AppError('UPSTREAM_UNAVAILABLE', 'source subsonic: no Subsonic API at SUBSONIC_URL/rest (HTTP 404); give the address the server\'s apps connect to', { cause });
    }
    return error;
  }

  /** Text from the server, without the password in any spelling the requests use. */
  private scrub(text: string): string {
    const secrets = [this.options.password, Buffer.from(this.options.password, 'utf8').toString('hex'), encodeURIComponent(this.options.password)];
    let out = text;
    for (const s of secrets) if (s.length >= 1) out = out.split(s).join('[REDACTED]');
    return out.replace(/([?&](?:p|t|s|apiKey)=)[^&\s]*/g, '$1[REDACTED]');
  }
}

/** Content types a server's error envelope may come in. */
const ENVELOPE_TYPES: ReadonlySet<string> = new Set(['application/json', 'text/json', 'text/xml', 'application/xml', 'text/plain', 'text/html']);

/** The body of an envelope, or undefined when `value` is not one. */
function bodyOf(value: unknown): SubsonicBody | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const body = (value as SubsonicEnvelope)['subsonic-response'];
  return typeof body === 'object' && body !== null && typeof body.status === 'string' ? body : undefined;
}

/**
 * An error envelope where audio or an image was expected, as JSON or XML: audio and images
 * never start with `{` or `<`, so anything else is the bytes asked for.
 */
function envelopeIn(bytes: Uint8Array): SubsonicBody | undefined {
  let i = 0;
  while (i < bytes.length && i < 64 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09 || bytes[i] === 0xef || bytes[i] === 0xbb || bytes[i] === 0xbf)) i++;
  const first = bytes[i];
  if (first !== 0x7b && first !== 0x3c) return undefined;
  const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024));
  if (first === 0x7b) {
    try {
      return bodyOf(JSON.parse(text)) ?? { status: 'failed', error: { code: 0, message: 'an answer that is not audio' } };
    } catch {
      return undefined;
    }
  }
  if (!/<subsonic-response\b/.test(text)) return { status: 'failed', error: { code: 0, message: 'an answer that is not audio' } };
  const status = /<subsonic-response\b[^>]*\bstatus="([^"]*)"/.exec(text)?.[1] ?? 'failed';
  const code = Number(/<error\b[^>]*\bcode="(\d+)"/.exec(text)?.[1] ?? '0');
  const message = /<error\b[^>]*\bmessage="([^"]*)"/.exec(text)?.[1] ?? '';
  return { status, error: { code, message } };
}

/** Whether a failed ping means "not with a token": too old a server, one that wants the password, or one that cannot check a token for this account. */
function takesNoToken(body: SubsonicBody): boolean {
  const code = body.error?.code;
  if (code === SUBSONIC_ERRORS.TOKEN_NOT_SUPPORTED || code === SUBSONIC_ERRORS.AUTH_NOT_SUPPORTED) return true;
  if (code === SUBSONIC_ERRORS.MISSING_PARAMETER || code === SUBSONIC_ERRORS.SERVER_MUST_UPGRADE) return true;
  const version = parseVersion(body.version);
  return version !== undefined && compareVersions(version, TOKEN_SINCE) < 0;
}

function isCredentialError(body: SubsonicBody): boolean {
  const code = body.error?.code;
  return code === SUBSONIC_ERRORS.WRONG_CREDENTIALS || code === SUBSONIC_ERRORS.TOKEN_NOT_SUPPORTED || code === SUBSONIC_ERRORS.INVALID_API_KEY;
}

/** The version to claim with the password: the server's own, else one before tokens. */
function protocolOf(version: unknown): string {
  return parseVersion(version) ? String(version) : PASSWORD_PROTOCOL;
}

function parseVersion(value: unknown): number[] | undefined {
  if (typeof value !== 'string' || !/^\d+(\.\d+){0,3}$/.test(value)) return undefined;
  return value.split('.').map(Number);
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

const notTheApi = (): SourceHttpError =>
  new SourceHttpError('answered something that is not the Subsonic API (no subsonic-response)', { kind: 'malformed', retryable: false, fault: true });
