import { InProcessJobs } from '../../../src/analysis/jobs/in-process.jobs';
import type { StoredAnalysis, TrackMetadata } from '../../../src/core/types';
import { syntheticAnalysis } from '../../../measure/store/synthetic-analyses';

/** A task whose jobs finish when the test says so, recording which tracks were started. */
function gatedTask(): { task: (track: TrackMetadata) => Promise<StoredAnalysis>; started: string[]; finish: (trackKey: string) => void } {
  const started: string[] = [];
  const gates = new Map<string, () => void>();
  const task = (track: TrackMetadata): Promise<StoredAnalysis> => {
    started.push(track.trackKey);
    return new Promise((resolve) => gates.set(track.trackKey, () => resolve({ ...syntheticAnalysis(started.length), trackKey: track.trackKey })));
  };
  return { task, started, finish: (key) => gates.get(key)!() };
}

const track = (key: string): TrackMetadata => ({ trackKey: key, trackName: `Track ${key}`, artist: 'Artist', source: 'test' });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('InProcessJobs', () => {
  it('runs at most its concurrency at once, the rest queued in order, and joins a second submit of a pending key', async () => {
    const { task, started, finish } = gatedTask();
    const jobs = new InProcessJobs(task, 1);
    const a = jobs.submit(track('a'));
    const b = jobs.submit(track('b'));
    expect(jobs.submit(track('b'))).toBe(b);
    await tick();
    expect(started).toEqual(['a']);
    expect(await jobs.status('a')).toEqual({ state: 'processing', queuePosition: 0 });
    expect(await jobs.status('b')).toEqual({ state: 'queued', queuePosition: 0 });
    expect(await jobs.counts()).toEqual({ waiting: 1, active: 1 });
    finish('a');
    expect((await a).trackKey).toBe('a');
    await tick();
    expect(started).toEqual(['a', 'b']);
    finish('b');
    expect((await b).trackKey).toBe('b');
    expect(await jobs.status('b')).toBeUndefined();
  });

  it('closing lets the running job finish, rejects the queued ones without starting them, and refuses new jobs', async () => {
    const { task, started, finish } = gatedTask();
    const jobs = new InProcessJobs(task, 1);
    const running = jobs.submit(track('a'));
    const queued = [jobs.submit(track('b')), jobs.submit(track('c'))];
    await tick();
    const closing = jobs.close();
    await expect(queued[0]).rejects.toThrow('the job runner is closed');
    await expect(queued[1]).rejects.toThrow('the job runner is closed');
    let closed = false;
    void closing.then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    finish('a');
    expect((await running).trackKey).toBe('a');
    await closing;
    expect(started).toEqual(['a']);
    await expect(jobs.submit(track('d'))).rejects.toThrow('the job runner is closed');
    expect(await jobs.counts()).toEqual({ waiting: 0, active: 0 });
  });
});
