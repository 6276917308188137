import Bottleneck from 'bottleneck';
import {
  CircuitState,
  ConsecutiveBreaker,
  DelegateBackoff,
  TimeoutStrategy,
  circuitBreaker,
  handleWhen,
  retry,
  timeout,
  wrap,
  type IRetryBackoffContext,
} from 'cockatiel';
import type { Logger } from '../../core/logger';
import { OutboundGuard, isOutboundRefusal } from '../../net/outbound.guard';
import { SourceHttpError, isSourceHttpError, toAppError } from './http.errors';
import type { SharedQuota, SharedQuotas } from './shared-quota';

/** A client-side quota: `max` requests per `intervalMs`, at most `maxConcurrent` at once. */
export interface RateLimit {
  max: number;
  intervalMs: number;
  maxConcurrent?: number;
}

export interface HttpClientOptions {
  /** The source's name, used in errors and logs. */
  name: string;
  /** The longest one call may take, retries and waits for the rate limiter included, ms. */
  timeoutMs: number;
  /** Sent with every request (User-Agent, Authorization). Never logged. */
  headers?: Record<string, string>;
  retry?: {
    /** Retries after the first attempt. Default 2. */
    retries?: number;
    /** First backoff delay, ms; each further one doubles, with full jitter. Default 200. */
    initialDelayMs?: number;
    /** Largest backoff delay, ms. Default 2000. */
    maxDelayMs?: number;
    /** A Retry-After longer than this is not waited for: the call fails RATE_LIMITED at once. Default timeoutMs / 2. */
    maxRetryAfterMs?: number;
  };
  rateLimit?: RateLimit;
  /**
   * Where `rateLimit` is also counted for the whole deployment (Redis, scaled out): each call
   * then waits for both this node's limiter and the shared quota. Unset: this node only.
   */
  sharedQuotas?: SharedQuotas;
  breaker?: {
    /** Consecutive failed calls (after their retries) that open the circuit. Default 1. */
    threshold?: number;
    /** How long the circuit stays open before one trial call, ms. Default 30 000. */
    halfOpenAfterMs?: number;
  };
  /** Redirects followed by a download. Default 3. */
  maxRedirects?: number;
  /** Largest JSON body accepted (SOURCE_MAX_JSON_BYTES), bytes; a larger one is UPSTREAM_INVALID. Default 2 MiB. */
  maxJsonBytes?: number;
  /**
   * Which addresses requests may reach (src/net/outbound.guard.ts). By default only public ones,
   * except the origins of `trustedOrigins` (the source's configured base URLs), which are
   * reached wherever they resolve. `allowPrivate` (OUTBOUND_ALLOW_PRIVATE) lifts the rule.
   */
  outbound?: { allowPrivate?: boolean; trustedOrigins?: readonly string[] };
  /** Retry-After hint for a quota error that carries none, s. Default 5. */
  quotaRetryAfterS?: number;
  logger: Logger;
  /** Injected by tests; defaults to the global fetch (undici). */
  fetch?: typeof fetch;
  /** Injected by tests to make jitter deterministic. */
  random?: () => number;
}

export interface JsonRequest {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Statuses besides 2xx that are answers rather than failures (e.g. 202 "not ready"). */
  acceptStatus?: readonly number[];
  /**
   * Looks at a parsed body inside the attempt and may throw a SourceHttpError: Deezer reports
   * quota errors as HTTP 200 with an `error` object, and those must be retried like a 429.
   */
  inspect?: (body: unknown, status: number) => void;
}

export interface JsonResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export interface DownloadRequest {
  signal?: AbortSignal;
  maxBytes: number;
  /** Whether a Content-Type is acceptable; a missing one is passed as ''. */
  acceptContentType: (contentType: string) => boolean;
}

/** The client options a source takes from its caller and hands on as they are (SOURCE_MAX_JSON_BYTES, shared quotas, retry and breaker tuning, a test's fetch). */
export type PassedHttpOptions = Pick<HttpClientOptions, 'maxJsonBytes' | 'sharedQuotas' | 'retry' | 'breaker' | 'fetch'>;

/** Those of a source's options that were given: an option left unset keeps the client's default. */
export function passedHttpOptions(options: PassedHttpOptions): PassedHttpOptions {
  const passed: PassedHttpOptions = {};
  if (options.maxJsonBytes !== undefined) passed.maxJsonBytes = options.maxJsonBytes;
  if (options.sharedQuotas) passed.sharedQuotas = options.sharedQuotas;
  if (options.retry) passed.retry = options.retry;
  if (options.breaker) passed.breaker = options.breaker;
  if (options.fetch) passed.fetch = options.fetch;
  return passed;
}

/**
 * HTTP for one source, with the source's own resilience: every call runs inside
 * circuit breaker -> overall timeout -> retries (backoff with full jitter, honouring
 * Retry-After) -> rate limiter (this process's, then the deployment's shared quota when given)
 * -> fetch. The limiter and breaker belong to this instance, so two sources never share a quota
 * or a circuit. Failures leave as AppErrors.
 */
export class HttpClient {
  private readonly fetchImpl: typeof fetch;
  private readonly limiter: Bottleneck | undefined;
  private readonly sharedQuota: SharedQuota | undefined;
  private readonly policy;
  private readonly breakerPolicy;
  private readonly random: () => number;
  private readonly maxRedirects: number;
  private readonly maxJsonBytes: number;
  private readonly outbound: OutboundGuard;
  /** When the circuit last opened, and the failure that opened it (said by health()). */
  private lastBreak: { at: Date; why: string } | undefined;

  constructor(private readonly options: HttpClientOptions) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.random = options.random ?? Math.random;
    this.maxRedirects = options.maxRedirects ?? 3;
    this.maxJsonBytes = options.maxJsonBytes ?? 2 * 1024 * 1024;
    this.outbound = new OutboundGuard({
      allowPrivate: options.outbound?.allowPrivate ?? false,
      trustedOrigins: options.outbound?.trustedOrigins ?? [],
    });
    const r = options.retry ?? {};
    const initialDelayMs = r.initialDelayMs ?? 200;
    const maxDelayMs = r.maxDelayMs ?? 2000;
    const maxRetryAfterMs = r.maxRetryAfterMs ?? options.timeoutMs / 2;

    if (options.rateLimit) {
      const { max, intervalMs, maxConcurrent } = options.rateLimit;
      this.limiter = new Bottleneck({
        reservoir: max,
        reservoirRefreshAmount: max,
        reservoirRefreshInterval: intervalMs,
        maxConcurrent: maxConcurrent ?? null,
      });
      this.sharedQuota = options.sharedQuotas?.quota(options.name, options.rateLimit);
    }

    const retryPolicy = retry(
      handleWhen(
        (e) => isSourceHttpError(e) && e.retryable && (e.retryAfterMs === undefined || e.retryAfterMs <= maxRetryAfterMs),
      ),
      {
        maxAttempts: r.retries ?? 2,
        backoff: new DelegateBackoff((context: IRetryBackoffContext<unknown>) => {
          const error = 'error' in context.result ? context.result.error : undefined;
          if (isSourceHttpError(error) && error.retryAfterMs !== undefined) return error.retryAfterMs;
          const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (context.attempt - 1));
          return Math.round(this.random() * ceiling);
        }),
      },
    );
    retryPolicy.onRetry((e) =>
      options.logger.debug({ source: options.name, attempt: e.attempt, delayMs: e.delay, err: 'error' in e ? e.error : undefined }, 'source call retried'),
    );
    // A source that is down, answering 5xx or garbage, or too slow opens the circuit; an
    // answer (404, quota, a refused content-type, a record out of range) does not.
    this.breakerPolicy = circuitBreaker(
      handleWhen((e) => !isSourceHttpError(e) || e.fault),
      {
        halfOpenAfter: options.breaker?.halfOpenAfterMs ?? 30_000,
        breaker: new ConsecutiveBreaker(options.breaker?.threshold ?? 1),
      },
    );
    this.breakerPolicy.onBreak((reason) => {
      const error = 'error' in reason ? reason.error : undefined;
      const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
      this.lastBreak = { at: new Date(), why: error instanceof Error ? `${error.message}${cause}` : 'failed' };
      options.logger.warn({ source: options.name }, 'source circuit opened');
    });
    this.breakerPolicy.onReset(() => options.logger.info({ source: options.name }, 'source circuit closed'));
    this.policy = wrap(this.breakerPolicy, timeout(options.timeoutMs, TimeoutStrategy.Aggressive), retryPolicy);
  }

  get name(): string {
    return this.options.name;
  }

  /** 'closed' while calls go through, 'open' while the breaker answers at once. */
  get circuit(): 'closed' | 'open' | 'half-open' {
    const state = this.breakerPolicy.state;
    if (state === CircuitState.Closed) return 'closed';
    if (state === CircuitState.HalfOpen) return 'half-open';
    return 'open';
  }

  /**
   * Why calls fail at once now (the circuit is open or half-open, with when it opened and the
   * failure that opened it), or undefined while calls go through.
   */
  health(): string | undefined {
    if (this.circuit === 'closed') return undefined;
    const since = this.lastBreak ? ` since ${this.lastBreak.at.toISOString()}: ${this.lastBreak.why}` : '';
    return `circuit ${this.circuit}${since}`;
  }

  async getJson<T>(url: string | URL, request: JsonRequest = {}): Promise<JsonResponse<T>> {
    return this.run(request.signal, async (signal) => {
      const res = await this.send(url, signal, request.headers, 'follow');
      const accepted = res.ok || (request.acceptStatus ?? []).includes(res.status);
      if (!accepted) throw await this.statusError(res);
      const body = await this.readJson(res);
      request.inspect?.(body, res.status);
      return { status: res.status, headers: res.headers, body: body as T };
    });
  }

  /**
   * Downloads a file into memory: http(s) only, redirects followed by hand (each hop checked,
   * at most `maxRedirects`), Content-Type checked before the body is read, and the body cut off
   * past `maxBytes`. Nothing is written to disk. The URL may come from data: every hop connects
   * through the outbound guard, so a private or loopback address is refused (UPSTREAM_INVALID).
   */
  async download(url: string, request: DownloadRequest): Promise<Uint8Array> {
    return this.run(request.signal, async (signal) => {
      let target = checkedUrl(url);
      for (let hop = 0; ; hop++) {
        const res = await this.send(target, signal, undefined, 'manual');
        if (res.status >= 300 && res.status < 400 && res.headers.has('location')) {
          await res.body?.cancel().catch(() => undefined);
          if (hop >= this.maxRedirects) {
            throw new SourceHttpError(`more than ${this.maxRedirects} redirects`, { kind: 'unsafe', retryable: false, fault: false });
          }
          target = checkedUrl(new URL(res.headers.get('location') ?? '', target).toString());
          continue;
        }
        if (!res.ok) throw await this.statusError(res);
        const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        if (!request.acceptContentType(contentType)) {
          await res.body?.cancel().catch(() => undefined);
          throw new SourceHttpError(`served ${contentType || 'no content-type'}, not audio`, {
            kind: 'content-type',
            retryable: false,
            fault: false,
          });
        }
        return readCapped(res, request.maxBytes, () =>
          new SourceHttpError(`body is larger than ${request.maxBytes} bytes`, { kind: 'too-large', retryable: false, fault: false }),
        );
      }
    });
  }

  /** Stops the rate limiter's queue (pending calls fail) and closes idle connections. */
  async close(): Promise<void> {
    await this.limiter?.stop({ dropWaitingJobs: true }).catch(() => undefined);
    await this.outbound.close().catch(() => undefined);
  }

  private async run<T>(callerSignal: AbortSignal | undefined, attempt: (signal: AbortSignal) => Promise<T>): Promise<T> {
    // The guarded dispatcher is made on first use, loading undici (0.1–0.5 s): before the request
    // waits for its turn, so that one the rate limit or shared quota lets through is sent at once,
    // inside its window, not after the load (two windows' requests would reach the source together).
    this.outbound.prepare();
    try {
      return await this.policy.execute(({ signal }) => this.limited(signal, () => attempt(signal)), callerSignal);
    } catch (error) {
      throw toAppError(this.options.name, error, this.options.quotaRetryAfterS);
    }
  }

  private limited<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    if (!this.limiter) return fn();
    const shared = this.sharedQuota;
    // Bottleneck cannot withdraw a queued job: one whose caller gave up runs as a no-op.
    return this.limiter.schedule(async () => {
      if (signal.aborted) throw signal.reason;
      if (shared) await shared.take(signal);
      return fn();
    });
  }

  private async send(
    url: string | URL,
    signal: AbortSignal,
    headers: Record<string, string> | undefined,
    redirect: 'follow' | 'manual',
  ): Promise<Response> {
    try {
      return await this.fetchImpl(url, {
        signal,
        redirect,
        headers: { accept: 'application/json', ...this.options.headers, ...headers },
        ...(this.outbound.dispatcher ? { dispatcher: this.outbound.dispatcher } : {}),
      });
    } catch (error) {
      if (signal.aborted) throw error;
      // A URL leading to a private address is bad data, not the source being down: not retried,
      // not counted by the breaker. The address stays in the cause (the log), not the message.
      if (isOutboundRefusal(error)) {
        throw new SourceHttpError('gave a URL that leads to a non-public address', { kind: 'invalid', retryable: false, fault: false, cause: error });
      }
      throw new SourceHttpError('could not be reached', { kind: 'network', retryable: true, fault: true, cause: error });
    }
  }

  private async statusError(res: Response): Promise<SourceHttpError> {
    let body: unknown;
    try {
      body = await this.readJson(res);
    } catch {
      body = undefined;
    }
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
    const status = res.status;
    const quota = status === 429;
    const retryable = quota || status >= 500 || status === 408;
    return new SourceHttpError(`answered HTTP ${status}`, {
      kind: quota ? 'quota' : 'status',
      status,
      retryable,
      fault: status >= 500,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      body,
    });
  }

  private async readJson(res: Response): Promise<unknown> {
    // An oversized answer is content the source should not have sent (not an outage): refused
    // as UPSTREAM_INVALID, neither retried nor counted by the breaker.
    const bytes = await readCapped(res, this.maxJsonBytes, () =>
      new SourceHttpError(`answered a JSON body larger than ${this.maxJsonBytes} bytes`, { kind: 'invalid', retryable: false, fault: false }),
    );
    const text = new TextDecoder().decode(bytes);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new SourceHttpError('answered malformed JSON', { kind: 'malformed', status: res.status, retryable: false, fault: true, cause: error });
    }
  }
}

function checkedUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SourceHttpError('gave an invalid URL', { kind: 'invalid', retryable: false, fault: false });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceHttpError(`gave a ${url.protocol} URL; only http(s) is fetched`, { kind: 'invalid', retryable: false, fault: false });
  }
  return url;
}

/** Reads a body, refusing it (with `tooLarge()`) as soon as it is known or seen to exceed `maxBytes`. */
async function readCapped(res: Response, maxBytes: number, tooLarge: () => SourceHttpError): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}

/** Retry-After as delay-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
