import { isOutboundRefusal, type OutboundGuard } from '../net/outbound.guard';
import { signature } from './webhook.secrets';

/** One signed POST of a delivery. */
export interface WebhookMessage {
  url: string;
  /** The webhook-id header: the delivery's id, the same on every attempt. */
  id: string;
  /** The webhook-timestamp header, seconds since the epoch: this attempt's. */
  timestampS: number;
  body: string;
  secret: string;
}

/** What came of one attempt. */
export interface SendResult {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  durationMs: number;
  /** Why it failed, for the delivery log (never the secret or the body). */
  error: string | null;
}

export interface WebhookSenderOptions {
  /** WEBHOOK_TIMEOUT_MS: the whole attempt (connection, answer, the part of its body read). */
  timeoutMs: number;
  /** Bytes of the receiver's answer read at most (the rest is not waited for). */
  maxResponseBytes?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Sends webhook messages as the Standard Webhooks specification has them: a JSON POST with
 * `webhook-id`, `webhook-timestamp` and `webhook-signature`. Every connection goes through the
 * outbound guard (a target that resolves to a loopback or private address is refused when it is
 * connected to, whatever it resolved to when the webhook was made); redirects are not followed
 * (a 3xx is a failure); the attempt is bounded in time and in how much of the answer is read.
 * A 2xx answer is a success.
 */
export class WebhookSender {
  private readonly maxResponseBytes: number;

  constructor(
    private readonly guard: OutboundGuard,
    private readonly options: WebhookSenderOptions,
  ) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  async send(message: WebhookMessage): Promise<SendResult> {
    const started = performance.now();
    const elapsed = (): number => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    try {
      const response = await this.guard.fetch(message.url, {
        method: 'POST',
        redirect: 'manual',
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'trackgraph-webhooks',
          'webhook-id': message.id,
          'webhook-timestamp': String(message.timestampS),
          'webhook-signature': signature(message.secret, message.id, message.timestampS, message.body),
        },
        body: message.body,
      });
      await this.drain(response);
      const status = response.status;
      if (status >= 200 && status < 300) return { ok: true, status, durationMs: elapsed(), error: null };
      const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
      return { ok: false, status, durationMs: elapsed(), error };
    } catch (error) {
      return { ok: false, status: null, durationMs: elapsed(), error: this.describe(error, signal) };
    }
  }

  /** Reads at most maxResponseBytes of the answer, then lets the connection go. */
  private async drain(response: Response): Promise<void> {
    const body = response.body;
    if (!body) return;
    const reader: ReadableStreamDefaultReader<Uint8Array> = body.getReader();
    let read = 0;
    try {
      while (read <= this.maxResponseBytes) {
        const { done, value } = await reader.read();
        if (done) return;
        read += value.byteLength;
      }
      await reader.cancel();
    } catch {
      // An answer cut short after its status line still has that status.
    } finally {
      reader.releaseLock();
    }
  }

  private describe(error: unknown, signal: AbortSignal): string {
    if (signal.aborted) return `timed out after ${this.options.timeoutMs} ms`;
    if (isOutboundRefusal(error)) {
      const message = refusalMessage(error);
      return `not sent: ${message}; webhooks reach public addresses only`;
    }
    const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
    if (typeof cause?.code === 'string') return `connection failed: ${cause.code}`;
    if (typeof cause?.message === 'string') return `connection failed: ${cause.message}`;
    return `connection failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The refusal's own sentence ("refused to connect to host (address: range address)"). */
function refusalMessage(error: unknown): string {
  let e: unknown = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const { message, cause } = e as { message?: unknown; cause?: unknown };
    if (typeof message === 'string' && message.includes('refused to connect')) return message.replace(/^OutboundRefusedError: /, '');
    e = cause;
  }
  return 'refused to connect';
}
