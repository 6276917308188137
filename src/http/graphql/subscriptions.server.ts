import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GraphQLError, OperationTypeNode, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type GraphQLSchema } from 'graphql';
import type { ContainerType } from 'type-graphql';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger as PinoLogger } from 'pino';
import { WebSocketServer } from 'ws';
import type { AnalysisService } from '../../analysis/analysis.service';
import type { AnalysisEvents } from '../../analysis/events/analysis-events.channel';
import type { ApiKeyService, Principal } from '../../auth/api-keys';
import { AppError } from '../../core/errors';
import { refusal, type GraphQLCharges } from '../../ops/rate-limit';
import { authenticate, bearerKey } from '../auth';
import { createContext } from './graphql.context';
import { CostInputError, costEstimators, operationCost } from './graphql.cost';
import { formatGraphQLError } from './graphql.errors';
import { checkDocument, type DocumentLimits } from './graphql.limits';
import { knownOperationTypesRule } from './graphql.operations';

export interface SubscriptionServerOptions {
  /** The schema Apollo runs: subscriptions execute on the same one. */
  schema: GraphQLSchema;
  /** The app's resolver instances, as its HTTP requests have them. */
  resolvers: ContainerType;
  apiKeys: ApiKeyService;
  analysis: AnalysisService;
  events: AnalysisEvents;
  /** The document limits of HTTP requests (GRAPHQL_MAX_*), applied to every subscription. */
  limits: DocumentLimits;
  /** GRAPHQL_MAX_COST */
  maxCost: number;
  /** GRAPHQL_MAX_SUBSCRIPTIONS: subscriptions one connection holds at once. */
  maxSubscriptions: number;
  /** Charges a subscription's cost to its key's rate limit, as a GraphQL request is charged. */
  charges?: GraphQLCharges;
  logger: PinoLogger;
}

export interface SubscriptionServer {
  /** The HTTP server's 'upgrade' listener: WebSocket upgrades to /graphql; any other path is refused. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every connection (1001 Going away) and takes no new one: graceful shutdown. */
  close(): Promise<void>;
}

/** What a connection carries once its key is checked. */
interface Connection extends Record<PropertyKey, unknown> {
  principal: Principal;
  /** The key itself, to check again at each subscribe (it may be revoked meanwhile). */
  key: string;
  /** Opened without a key: acknowledged, but serves nothing and is closed soon. */
  anonymous: boolean;
}

/** A subscribe message's payload or a connection's frames past this are refused (the HTTP body limit). */
const MAX_MESSAGE_BYTES = 100 * 1024;
/** The WebSocket close code for "the key is not accepted" (graphql-ws's Forbidden). */
const FORBIDDEN = 4403;
/** "Try again later" (RFC 6455 registry): the keys could not be checked. */
const TRY_AGAIN_LATER = 1013;
/** A connection opened without a key is closed after this, ms (it can subscribe to nothing). */
const ANONYMOUS_GRACE_MS = 10_000;
const MISSING_KEY = 'missing authorization in the connection_init payload; send {"authorization": "Bearer <API key>"}';

const error = (message: string, code: string, extensions: Record<string, unknown> = {}): GraphQLError =>
  new GraphQLError(message, { extensions: { code, ...extensions } });

/**
 * The Authorization value of a connection_init payload: `{authorization: "Bearer …"}`, the name
 * in any case (tools send their header list as it is), or under `headers` as some clients nest it.
 */
function authorizationOf(params: Readonly<Record<string, unknown>> | undefined, depth = 0): string | undefined {
  if (!params) return undefined;
  for (const [name, value] of Object.entries(params)) {
    if (name.toLowerCase() === 'authorization' && typeof value === 'string') return value;
  }
  const nested = params.headers;
  return depth === 0 && typeof nested === 'object' && nested !== null ? authorizationOf(nested as Record<string, unknown>, 1) : undefined;
}

/** A close reason fits in 123 bytes. */
const reason = (text: string): string => (Buffer.byteLength(text) <= 123 ? text : `${Buffer.from(text).subarray(0, 120).toString()}…`);

/**
 * GraphQL subscriptions over graphql-ws (the protocol Apollo Sandbox, Apollo Client's GraphQLWsLink
 * and urql speak) on the HTTP server's own port, at /graphql. The key goes in the connection_init
 * payload, `{"authorization": "Bearer <key>"}`: a connection with a key that is not valid is
 * closed with 4403 and the reason; one without a key is acknowledged but serves nothing (a
 * subscribe on it is refused and the connection closed with 4403), and is closed after 10 s.
 * Every subscribe is held to the HTTP requests' rules: the document limits and cost, the
 * key's rate limit, and at most `maxSubscriptions` at once per connection. The socket carries
 * subscriptions only: queries and mutations go over HTTP, through every HTTP plugin.
 *
 * The HTTP server's idle timeout does not apply to these sockets: graphql-ws pings every 12 s
 * and drops a connection whose pong does not come back.
 */
export function createSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const { schema, apiKeys, limits, logger } = options;
  const log = logger.child({ component: 'subscriptions' });
  const estimators = costEstimators();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let closing: Promise<void> | undefined;

  const server = useServer<Record<string, unknown>, Connection>(
    {
      schema,
      // Errors the client may read are shaped by formatGraphQLError; nothing else is shown.
      isProd: true,
      onConnect: async (ctx) => {
        let principal: Principal;
        const header = authorizationOf(ctx.connectionParams);
        if (header === undefined) {
          // Acknowledged, so that a tool which opens a first connection before its settings are
          // loaded (Apollo Sandbox does) goes on to open one with the key; it serves nothing.
          ctx.extra.anonymous = true;
          const timer = setTimeout(() => ctx.extra.socket.close(FORBIDDEN, reason(`Forbidden: ${MISSING_KEY}`)), ANONYMOUS_GRACE_MS);
          ctx.extra.socket.once('close', () => clearTimeout(timer));
          return true;
        }
        try {
          principal = await authenticate(header, apiKeys);
        } catch (e) {
          const unavailable = e instanceof AppError && e.code === 'SERVICE_UNAVAILABLE';
          const why = e instanceof AppError ? e.message : 'the key could not be checked';
          log.warn({ code: e instanceof AppError ? e.code : 'INTERNAL' }, 'subscription connection refused');
          ctx.extra.socket.close(unavailable ? TRY_AGAIN_LATER : FORBIDDEN, reason(`Forbidden: ${why}`));
          return false;
        }
        ctx.extra.principal = principal;
        ctx.extra.key = bearerKey(header);
        log.debug({ keyId: principal.id }, 'subscription connection opened');
        return true;
      },
      onSubscribe: async (ctx, _id, payload): Promise<ExecutionArgs | readonly GraphQLError[]> => {
        const { principal, key } = ctx.extra;
        if (ctx.extra.anonymous || !principal || !key) {
          ctx.extra.socket.close(FORBIDDEN, reason(`Forbidden: ${MISSING_KEY}`));
          return [error(MISSING_KEY, 'UNAUTHENTICATED')];
        }
        // A key revoked or expired since the connection opened takes no new subscription. While
        // the loaded keys are fresh this is checked without waiting (the subscription count below
        // must see this connection as it is); stale, they are read again, and a store that cannot
        // be read keeps the connection's key.
        const still = apiKeys.stale() ? await apiKeys.ensureFresh().then(() => apiKeys.recheck(key), () => principal) : apiKeys.recheck(key);
        if (!still) {
          ctx.extra.socket.close(FORBIDDEN, 'Forbidden: unknown or revoked API key');
          return [error('unknown or revoked API key', 'UNAUTHENTICATED')];
        }
        // The subscription being started is counted already.
        if (Object.keys(ctx.subscriptions).length > options.maxSubscriptions) {
          return [
            error(`this connection holds ${options.maxSubscriptions} subscriptions already, the most allowed; complete one first`, 'BAD_REQUEST', {
              maxSubscriptions: options.maxSubscriptions,
            }),
          ];
        }
        if (typeof payload.query !== 'string' || payload.query.length === 0) return [error('a subscribe message needs a query', 'BAD_REQUEST')];
        const refused = checkDocument(payload.query, limits);
        if (refused) return [error(refused.message, refused.code, refused.limit ?? {})];
        let document: DocumentNode;
        try {
          document = parse(payload.query, { maxTokens: limits.maxTokens });
        } catch (e) {
          return [error(e instanceof Error ? e.message : 'Syntax Error', 'GRAPHQL_PARSE_FAILED')];
        }
        const invalid = validate(schema, document, [...specifiedRules, knownOperationTypesRule]);
        if (invalid.length > 0) return invalid.map((e) => error(e.message, 'GRAPHQL_VALIDATION_FAILED'));
        const operation = getOperationAST(document, payload.operationName);
        if (!operation) return [error('Must provide an operation, or the name of one in the document.', 'OPERATION_RESOLUTION_FAILURE')];
        if (operation.operation !== OperationTypeNode.SUBSCRIPTION) {
          return [error(`this socket carries subscriptions; send a ${operation.operation} as an HTTP POST to /graphql`, 'BAD_REQUEST')];
        }
        const variables = payload.variables ?? {};
        let cost: number;
        try {
          cost = operationCost(schema, document, operation, variables, estimators);
        } catch (e) {
          if (e instanceof CostInputError) return [error(e.message, 'BAD_USER_INPUT')];
          throw e;
        }
        if (cost > options.maxCost) {
          return [
            error(`the document costs ${cost}, more than the ${options.maxCost} allowed per request; ask for fewer tracks or fields at once`, 'GRAPHQL_VALIDATION_FAILED', {
              cost,
              maxCost: options.maxCost,
            }),
          ];
        }
        const decision = await options.charges?.charge(principal.id, cost);
        if (decision && !decision.allowed) return [error(refusal(decision), 'RATE_LIMITED', { retryAfter: decision.resetS })];
        log.debug({ keyId: principal.id, cost }, 'subscription started');
        return {
          schema,
          document,
          variableValues: variables,
          operationName: payload.operationName ?? null,
          contextValue: createContext({ principal, analysis: options.analysis, resolvers: options.resolvers, log, events: options.events }),
        };
      },
      onNext: (_ctx, _id, _payload, _args, result) => {
        if (!result.errors) return undefined;
        const errors = result.errors.map((e) => formatGraphQLError(e.toJSON(), e));
        for (const [i, e] of errors.entries()) {
          if (e.extensions?.code === 'INTERNAL') log.error({ err: result.errors[i] }, 'unexpected error in a subscription');
          else log.warn({ code: e.extensions?.code, msg: e.message }, 'subscription failed');
        }
        return { ...result, errors };
      },
    },
    wss,
  );

  return {
    handleUpgrade(req, socket, head) {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/graphql' || closing) {
        socket.end(`HTTP/1.1 ${closing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      // The HTTP server's idle timeout was meant for requests: a subscription may be silent for
      // hours (graphql-ws's pings keep proxies and dead peers in check instead).
      if ('setTimeout' in socket && typeof socket.setTimeout === 'function') (socket as Duplex & { setTimeout(ms: number): void }).setTimeout(0);
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close() {
      closing ??= Promise.resolve(server.dispose());
      return closing;
    },
  };
}
