import '../src/entry';
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  GraphQLError,
  Kind,
  getIntrospectionQuery,
  parse,
  specifiedRules,
  validate,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { getComplexity } from 'graphql-query-complexity';
import { loadConfig } from '../src/config';
import { costEstimators, operationCost } from '../src/http/graphql/graphql.cost';
import { checkDocument, type DocumentLimits } from '../src/http/graphql/graphql.limits';
import { knownOperationTypesRule } from '../src/http/graphql/graphql.operations';
import { graphQLSchema } from '../src/http/graphql/graphql.schema';
import { ATTACKS, aliasSpam, fanOut } from '../measure/http/graphql-documents';
import { startServerProcess, stopServerProcesses } from '../measure/http/server-process';
import { median, percentile } from '../measure/stats';

/**
 * Validation time of GraphQL documents that expand (fragment fan-out, nested introspection,
 * alias and directive spam) and of the largest documents the default limits accept.
 *
 * - before: what the server did with a document before the document limits: graphql-js's
 *   rules with the depth rule of that time (it walked every fragment expansion), then
 *   graphql-query-complexity's getComplexity. Each document in a child process, stopped
 *   after --before-timeout seconds.
 * - after: the document limits (parse with the token limit, measure, overlaps); for a
 *   document they accept, then graphql-js's validation and the cost walk, as Apollo runs them.
 * - /healthz: its latency on the real server, idle, then while clients send ordinary queries
 *   without pause, then while they send the attack documents.
 *
 * /healthz is probed on the server of this checkout, and with --before-dir on the server of another
 * checkout too (the revision before the document limits, with its node_modules).
 *
 *   npm run bench:graphql-limits -- [--reps 30] [--before-timeout 20] [--http 10] [--clients 8] [--before-dir <checkout>]
 */
const args = process.argv.slice(2);
const opt = (name: string, fallback: number): number => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const KEY = 'bench-key-0123456789';

const schema = graphQLSchema();
const config = loadConfig({});
const limits: DocumentLimits = {
  maxTokens: config.GRAPHQL_MAX_TOKENS,
  maxDepth: config.GRAPHQL_MAX_DEPTH,
  maxSelections: config.GRAPHQL_MAX_SELECTIONS,
  maxAliases: config.GRAPHQL_MAX_ALIASES,
  maxDirectives: config.GRAPHQL_MAX_DIRECTIVES,
};

const FULL = 'artist trackKey trackName duration_ms tempo key keyString mode timeSignature energy liveness danceability instrumentalness speechiness valence arousal approachability engagement mood { happy sad relaxed aggressive } meta { artist track }';

/** The attack documents, then the largest of each kind the defaults accept. */
const DOCUMENTS: Record<string, string> = {
  ...ATTACKS,
  'standard introspection query': getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
  'one full analysis': `{ analysis(trackKey: "0123456789abcdef") { ${FULL} } }`,
  '37 aliased full analyses (accepted)': `{ ${Array.from({ length: 37 }, (_, i) => `t${i}: analysis(trackKey: "0123456789abcdef") { ${FULL} }`).join(' ')} }`,
  'fan-out of 3 levels, 6 spreads each (accepted)': fanOut(3, 6),
  '100 aliases (accepted)': aliasSpam(100),
  '50 directives (accepted)': `{ ${'__typename @include(if: true) @skip(if: false) '.repeat(25)}}`,
  '31 repeated fields at one place (accepted)': `{ analysis(trackKey: "0123456789abcdef") { ${'mood { happy } '.repeat(31)}} }`,
};

/** The depth rule as the server ran it before the document limits: it followed every spread of every fragment. */
function legacyDepthRule(maxDepth: number): ValidationRule {
  const depth = (context: ValidationContext, set: SelectionSetNode, limit: number, fragments: ReadonlySet<string>): number => {
    let deepest = 0;
    for (const selection of set.selections) {
      let d: number;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value === '__schema' || selection.name.value === '__type') continue;
        if (!selection.selectionSet) d = 1;
        else d = limit > 1 ? 1 + depth(context, selection.selectionSet, limit - 1, fragments) : 2;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) d = depth(context, selection.selectionSet, limit, fragments);
      else {
        const fragment = context.getFragment(selection.name.value);
        if (!fragment || fragments.has(selection.name.value)) continue;
        d = depth(context, fragment.selectionSet, limit, new Set(fragments).add(selection.name.value));
      }
      deepest = Math.max(deepest, d);
      if (deepest > limit) break;
    }
    return deepest;
  };
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      if (depth(context, operation.selectionSet, maxDepth, new Set()) > maxDepth) context.reportError(new GraphQLError('too deep'));
    },
  });
}

/** A document through the former pipeline: parse (its token limit was 20,000), validate, price. */
function legacyPipeline(query: string): string {
  const document = parse(query, { maxTokens: 20_000 });
  const errors = validate(schema, document, [...specifiedRules, legacyDepthRule(limits.maxDepth)]);
  if (errors.length > 0) return 'refused';
  try {
    getComplexity({ schema, query: document, variables: {}, estimators: costEstimators() });
  } catch {
    return 'refused';
  }
  return 'accepted';
}

/**
 * One document through the former pipeline, in this process, after a warm-up on the ordinary
 * documents: prints the median of `reps` runs (one run when it takes over 100 ms).
 */
function runBefore(name: string, reps: number): void {
  for (const warm of ['one full analysis', 'standard introspection query']) for (let i = 0; i < 5; i++) legacyPipeline(DOCUMENTS[warm]!);
  const times: number[] = [];
  let verdict: string;
  do {
    const t = performance.now();
    verdict = legacyPipeline(DOCUMENTS[name]!);
    times.push(performance.now() - t);
  } while (times.length < reps && times[0]! < 100);
  process.stdout.write(`${JSON.stringify({ ms: median(times), verdict })}\n`);
}

function before(name: string, reps: number, timeoutS: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, '--before', name, String(reps)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    child.once('exit', () => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (!line) return resolve(`> ${timeoutS} s`);
      const { ms, verdict } = JSON.parse(line) as { ms: number; verdict: string };
      resolve(`${format(ms)} (${verdict})`);
    });
  });
}

function format(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(0)} µs`;
}

/** Median wall time of `reps` runs. */
function timed(reps: number, run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** The document limits, then (when they accept) graphql-js's validation and the cost, median of `reps`. */
function after(query: string, reps: number): { verdict: string; limits: number; validation?: number; cost?: number } {
  const refusal = checkDocument(query, limits);
  const gate = timed(reps, () => checkDocument(query, limits));
  if (refusal) return { verdict: `refused: ${Object.keys(refusal.limit ?? { parse: 1 })[0]}`, limits: gate };
  const document = parse(query, { maxTokens: limits.maxTokens });
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
  if (operation.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  const errors = validate(schema, document, [...specifiedRules, knownOperationTypesRule]);
  const validation = timed(reps, () => validate(schema, document, [...specifiedRules, knownOperationTypesRule]));
  const cost = timed(reps, () => operationCost(schema, document, operation, {}, costEstimators()));
  return { verdict: errors.length > 0 ? `accepted, then invalid (${errors[0]!.message})` : 'accepted', limits: gate, validation, cost };
}

/** /healthz latencies, one probe at a time, for `seconds`; a probe unanswered after `timeoutMs` counts as that long. */
async function probeHealth(port: number, seconds: number, timeoutMs: number): Promise<{ latencies: number[]; timeouts: number }> {
  const latencies: number[] = [];
  let timeouts = 0;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
    } catch {
      timeouts++;
      latencies.push(timeoutMs);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return { latencies, timeouts };
}

/** `clients` loops posting `bodies` in turn until `until()`; answers counted by status (0: no answer in time). */
async function load(port: number, bodies: readonly string[], until: () => boolean, clients: number, timeoutMs: number): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = c; !until(); i++) {
        let status: number;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: bodies[i % bodies.length]!,
            signal: AbortSignal.timeout(timeoutMs),
          });
          await res.arrayBuffer();
          status = res.status;
        } catch {
          status = 0;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  return statuses;
}

/**
 * /healthz on one server (bench/http/server.ts of `checkout`): idle, under ordinary queries,
 * under the attack documents. A server still blocked at the end is killed.
 */
async function healthRows(label: string, checkout: string, seconds: number, clients: number): Promise<string[]> {
  const server = await startServerProcess(`${label} server`, path.join(checkout, 'bench', 'http', 'server.ts'), {
    args: ['app', KEY],
    // tsx reads the tsconfig of the working directory unless told: the checkout's (decorators) is needed.
    env: { TSX_TSCONFIG_PATH: path.join(checkout, 'tsconfig.json') },
  });
  const timeoutMs = 2000;
  const rows: string[] = [];
  const row = (what: string, probe: { latencies: number[]; timeouts: number }, statuses?: Map<number, number>) => {
    const l = probe.latencies;
    const answered = statuses ? [...statuses].sort().map(([s, n]) => `${n} × ${s === 0 ? 'none in 2 s' : s}`).join(', ') : '–';
    const worst = probe.timeouts > 0 ? `≥ ${format(timeoutMs)} (${probe.timeouts} unanswered)` : format(Math.max(...l));
    return `| ${label} | ${what} | ${l.length} | ${format(median(l))} | ${format(percentile(l, 99))} | ${worst} | ${answered} |`;
  };
  try {
    await probeHealth(server.port, 1, timeoutMs);
    rows.push(row('idle', await probeHealth(server.port, seconds, timeoutMs)));
    const cases: [string, string[]][] = [
      ['ordinary queries (one full analysis)', [JSON.stringify({ query: DOCUMENTS['one full analysis'] })]],
      ['the attack documents', Object.values(ATTACKS).map((query) => JSON.stringify({ query }))],
    ];
    for (const [what, bodies] of cases) {
      let done = false;
      const sent = load(server.port, bodies, () => done, clients, timeoutMs);
      const probe = await probeHealth(server.port, seconds, timeoutMs);
      done = true;
      rows.push(row(`${clients} clients sending ${what}`, probe, await sent));
    }
  } finally {
    // A server blocked in a document cannot drain: it is killed, not asked to stop.
    server.child.kill('SIGKILL');
    await stopServerProcesses([server]);
  }
  return rows;
}

async function main(): Promise<void> {
  const reps = opt('reps', 30);
  const timeoutS = opt('before-timeout', 20);
  const httpS = opt('http', 10);
  const clients = opt('clients', 8);

  console.log(`Limits: ${JSON.stringify(limits)}; GRAPHQL_MAX_COST ${config.GRAPHQL_MAX_COST}\n`);
  console.log(`Before: one run, or the median of ${reps} when under 100 ms. After: the median of ${reps} runs of each step.\n`);
  console.log('| document | bytes | before | after: limits | after: validation | after: cost | verdict |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const [name, query] of Object.entries(DOCUMENTS)) {
    // A first pass warms the code up; the medians come from the next `reps`.
    after(query, 3);
    const a = after(query, reps);
    const b = await before(name, reps, timeoutS);
    const cell = (ms: number | undefined) => (ms === undefined ? '–' : format(ms));
    console.log(`| ${name} | ${query.length} | ${b} | ${cell(a.limits)} | ${cell(a.validation)} | ${cell(a.cost)} | ${a.verdict} |`);
  }

  if (httpS <= 0) return;
  console.log(`\n/healthz, ${httpS} s per row, one probe at a time (every 5 ms, 2 s timeout):\n`);
  console.log('| server | while | probes | median | p99 | max | answers to the clients |');
  console.log('|---|---|---:|---:|---:|---:|---|');
  const beforeDir = args.includes('--before-dir') ? args[args.indexOf('--before-dir') + 1]! : undefined;
  if (beforeDir) for (const line of await healthRows('before', path.resolve(beforeDir), httpS, clients)) console.log(line);
  for (const line of await healthRows('after', path.join(__dirname, '..'), httpS, clients)) console.log(line);
}

if (args[0] === '--before') runBefore(args[1]!, Number(args[2]));
else
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
