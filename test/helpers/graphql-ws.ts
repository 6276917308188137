import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client, type SubscribePayload } from 'graphql-ws';
import WebSocket from 'ws';

/** How a WebSocket closed, as a graphql-ws client reports it. */
export interface Closed {
  code: number;
  reason: string;
}

/** A graphql-ws client of a test server, recording how its socket closed. */
export interface WsClient {
  client: Client;
  closes: Closed[];
  /** Resolves once the server acknowledged the connection. */
  connected: Promise<void>;
  dispose(): Promise<void>;
}

/**
 * A graphql-ws client (the protocol Apollo Sandbox and GraphQLWsLink speak) of ws://127.0.0.1:port/graphql,
 * sending `params` in connection_init; it connects at once and never retries.
 */
export function wsClient(port: number, params?: Record<string, unknown>): WsClient {
  const closes: Closed[] = [];
  let ack!: () => void;
  const connected = new Promise<void>((resolve) => (ack = resolve));
  const client = createClient({
    url: `ws://127.0.0.1:${port}/graphql`,
    webSocketImpl: WebSocket,
    ...(params ? { connectionParams: params } : {}),
    lazy: false,
    retryAttempts: 0,
    // A test's own error handling: the client would otherwise log a failed connection.
    onNonLazyError: () => undefined,
    on: {
      connected: () => ack(),
      closed: (event) => {
        const e = event as { code: number; reason: string | Buffer };
        closes.push({ code: e.code, reason: String(e.reason) });
      },
    },
  });
  return { client, closes, connected, dispose: () => Promise.resolve(client.dispose()) };
}

/** One subscription's results as they arrive, and how it ended. */
export interface Subscription<T> {
  results: FormattedExecutionResult<T, unknown>[];
  /** Resolves when the server completes it; rejects with what the client's sink got as an error. */
  ended: Promise<void>;
  /** Resolves once `count` results have arrived. */
  next(count?: number): Promise<void>;
  stop(): void;
}

export function subscribe<T = Record<string, unknown>>(client: Client, payload: SubscribePayload): Subscription<T> {
  const results: FormattedExecutionResult<T, unknown>[] = [];
  let waiters: { count: number; resolve: () => void }[] = [];
  let stop!: () => void;
  const ended = new Promise<void>((resolve, reject) => {
    stop = client.subscribe<T>(payload, {
      next: (result) => {
        results.push(result);
        waiters = waiters.filter((w) => (results.length >= w.count ? (w.resolve(), false) : true));
      },
      error: reject,
      complete: resolve,
    });
  });
  // A test that does not wait for the end must not fail for it.
  ended.catch(() => undefined);
  return {
    results,
    ended,
    stop: () => stop(),
    next: (count = results.length + 1) => (results.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
  };
}
