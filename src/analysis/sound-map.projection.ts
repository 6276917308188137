import { Piscina } from 'piscina';
import { lazily } from '../core/lazy';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- required on first use (src/core/lazy.ts), in the projection's thread only
const umapJs = lazily(() => require('umap-js') as typeof import('umap-js'));

/*
 * The projection of the map of the library: unit vectors onto the plane by UMAP (umap-js), on a
 * worker thread of its own (this file, loaded again in the thread, whose default export runs the
 * job), so that neither the exact neighbours (n² dot products) nor UMAP's graph and epochs
 * (seconds at 5,000 points) hold up the requests the process answers meanwhile.
 */

/** UMAP's parameters: neighbours weighed per point (at most), how tightly it packs them, its seed. */
const NEIGHBOURS = 15;
const MIN_DIST = 0.1;
const SEED = 0x5eed_0001;
/** Epochs of UMAP's layout: fewer for a larger map (as UMAP's own defaults), whose every epoch moves more points. */
const EPOCHS = 500;
const EPOCHS_FEW = 200;
const EPOCHS_FEW_ABOVE = 2500;

/** What the thread is handed: `n` unit vectors of `dims` numbers, one after another. */
interface ProjectionJob {
  vectors: Float32Array;
  n: number;
  dims: number;
}

/**
 * The positions of `n` unit vectors of `dims` numbers (laid one after another in `vectors`) on
 * the plane, as x0, y0, x1, y1 …, scaled into [0, 1] by one factor for both axes (the map keeps
 * its shape) and centred: UMAP on a worker thread for three vectors or more; one vector lies at
 * the centre, two side by side.
 */
export async function projectVectors(vectors: Float32Array, n: number, dims: number): Promise<Float64Array> {
  if (n < 3) return normalised(placedWithoutUmap(n));
  return normalised(await inThread({ vectors, n, dims }));
}

function placedWithoutUmap(n: number): Float64Array {
  return n === 2 ? Float64Array.of(-1, 0, 1, 0) : new Float64Array(2 * n);
}

/** How long the projection's thread stays after a map, ms: the next refresh (or the next test) finds it started. */
const THREAD_IDLE_MS = 120_000;

/**
 * The projection's thread: this file, from source through tsx as the engine's threads are;
 * started at the first map, ended after THREAD_IDLE_MS without one, and never keeping a
 * process that is closing alive (Piscina unreferences an idle thread).
 */
const pool = lazily(
  () =>
    new Piscina<ProjectionJob, Float64Array>({
      filename: __filename,
      execArgv: __filename.endsWith('.ts') ? ['--import', 'tsx'] : [],
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: THREAD_IDLE_MS,
    }),
);

function inThread(job: ProjectionJob): Promise<Float64Array> {
  return pool().run(job, { transferList: [job.vectors.buffer as ArrayBuffer] });
}

/** A seeded generator of numbers in [0, 1) (mulberry32): UMAP's random, so that the same vectors make the same map. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The exact `k` nearest of every unit vector (itself first, at distance 0), by Euclidean distance
 * (on unit vectors, in the order of the cosine distance): what UMAP's graph is built from. Each
 * pair's dot product is computed once, for both of its vectors.
 */
function nearestOfAll(vectors: Float32Array, n: number, dims: number, k: number): { indices: number[][]; distances: number[][] } {
  const others = k - 1;
  const bestJ = new Int32Array(n * others);
  const bestD = new Float64Array(n * others);
  const count = new Int32Array(n);
  const offer = (i: number, j: number, distance: number): void => {
    const base = i * others;
    const held = count[i]!;
    if (held === others && distance >= bestD[base + held - 1]!) return;
    let at = held < others ? held : held - 1;
    if (held < others) count[i] = held + 1;
    while (at > 0 && bestD[base + at - 1]! > distance) {
      bestD[base + at] = bestD[base + at - 1]!;
      bestJ[base + at] = bestJ[base + at - 1]!;
      at--;
    }
    bestD[base + at] = distance;
    bestJ[base + at] = j;
  };
  const tail = dims - (dims % 4);
  for (let i = 0; i < n; i++) {
    const a = i * dims;
    for (let j = i + 1; j < n; j++) {
      const b = j * dims;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      let d = 0;
      for (; d < tail; d += 4) {
        d0 += vectors[a + d]! * vectors[b + d]!;
        d1 += vectors[a + d + 1]! * vectors[b + d + 1]!;
        d2 += vectors[a + d + 2]! * vectors[b + d + 2]!;
        d3 += vectors[a + d + 3]! * vectors[b + d + 3]!;
      }
      for (; d < dims; d++) d0 += vectors[a + d]! * vectors[b + d]!;
      const distance = Math.sqrt(Math.max(0, 2 - 2 * (d0 + d1 + d2 + d3)));
      offer(i, j, distance);
      offer(j, i, distance);
    }
  }
  const indices: number[][] = [];
  const distances: number[][] = [];
  for (let i = 0; i < n; i++) {
    const base = i * others;
    indices.push([i, ...bestJ.subarray(base, base + count[i]!)]);
    distances.push([0, ...bestD.subarray(base, base + count[i]!)]);
  }
  return { indices, distances };
}

/** UMAP of the job's vectors, from their exact neighbours, every epoch run. */
function umapOf({ vectors, n, dims }: ProjectionJob): Float64Array {
  const nNeighbors = Math.min(NEIGHBOURS, n - 1);
  const { UMAP } = umapJs();
  const umap = new UMAP({ nComponents: 2, nNeighbors, minDist: MIN_DIST, nEpochs: n <= EPOCHS_FEW_ABOVE ? EPOCHS : EPOCHS_FEW, random: seeded(SEED) });
  const knn = nearestOfAll(vectors, n, dims, nNeighbors);
  umap.setPrecomputedKNN(knn.indices, knn.distances);
  const rows = Array.from({ length: n }, (_, i) => Array.from(vectors.subarray(i * dims, (i + 1) * dims)));
  const epochs = umap.initializeFit(rows);
  for (let epoch = 0; epoch < epochs; epoch++) umap.step();
  return Float64Array.from(umap.getEmbedding().flatMap((p) => [p[0]!, p[1]!]));
}

/** Positions scaled into [0, 1] by one factor for both axes, centred, 4 decimals; every one at the centre when they all coincide. */
function normalised(xy: Float64Array): Float64Array {
  const n = xy.length / 2;
  if (n === 0) return xy;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, xy[2 * i]!);
    maxX = Math.max(maxX, xy[2 * i]!);
    minY = Math.min(minY, xy[2 * i + 1]!);
    maxY = Math.max(maxY, xy[2 * i + 1]!);
  }
  const span = Math.max(maxX - minX, maxY - minY);
  if (!(span > 0)) return new Float64Array(2 * n).fill(0.5);
  const offsetX = (1 - (maxX - minX) / span) / 2;
  const offsetY = (1 - (maxY - minY) / span) / 2;
  const round = (v: number) => Math.min(1, Math.max(0, Math.round(v * 1e4) / 1e4));
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = round((xy[2 * i]! - minX) / span + offsetX);
    out[2 * i + 1] = round((xy[2 * i + 1]! - minY) / span + offsetY);
  }
  return out;
}

/** The projection's thread: UMAP of the job handed over (Piscina calls a thread file's default export). */
export default function projectInThread(job: ProjectionJob): Float64Array {
  return umapOf(job);
}
