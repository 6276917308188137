import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { pino } from 'pino';
import { loadConfig } from '../../../src/config';
import { buildHttpApp, createContainer, type Container } from '../../../src/container';
import { AppError } from '../../../src/core/errors';
import type { AudioFeatures, AudioInput } from '../../../src/core/types';
import { FakeEngine } from '../../../measure/http/fake-engine';
import { OFFLINE_ENV } from '../../helpers/offline-env';
import { TEST_API_KEY } from '../../helpers/test-app';
import { POSTGRES_URL, REDIS_URL, deleteRedisKeys, dropSchema, uniqueName } from '../../../measure/store/infra';

/** The environment of a scaled-out deployment of its own: a Postgres schema and a Redis prefix nobody else uses. */
export interface ScaledSetup {
  env: Record<string, string>;
  schema: string;
  prefix: string;
  /** Drops the schema and deletes the Redis keys. */
  cleanup(): Promise<void>;
}

export function scaledSetup(label: string, overrides: { redisUrl?: string; databaseUrl?: string } = {}): ScaledSetup {
  const schema = uniqueName(label);
  const prefix = schema;
  const redis = overrides.redisUrl ?? REDIS_URL;
  return {
    schema,
    prefix,
    env: {
      DATABASE_URL: overrides.databaseUrl ?? POSTGRES_URL!,
      DATABASE_SCHEMA: schema,
      CACHE_URL: redis,
      QUEUE_URL: redis,
      REDIS_PREFIX: prefix,
      WORKER_LOCK_MS: '2000',
    },
    async cleanup() {
      await dropSchema(schema);
      await deleteRedisKeys(prefix);
    },
  };
}

/** A fake engine for which a file whose bytes begin with "not audio" is undecodable (as the real one says). */
export class PickyEngine extends FakeEngine {
  override async analyse(input: AudioInput): Promise<AudioFeatures> {
    const features = await super.analyse(input);
    const bytes = 'bytes' in input ? Buffer.from(input.bytes) : await readFile(input.path);
    if (bytes.subarray(0, 9).toString() === 'not audio') throw new AppError('AUDIO_UNDECODABLE', 'the file is not audio');
    return features;
  }
}

/** An analysis worker (the `npm run worker` role) in this process, on the given library. */
export async function startWorker(
  dir: string,
  env: Record<string, string>,
  engine: FakeEngine,
): Promise<Container> {
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'worker-data'),
    LIBRARY_DIR: path.join(dir, 'library'),
    LIBRARY_WATCH: 'false',
    ANALYSIS_WORKERS: '1',
    WORKER_CONCURRENCY: '2',
    ...OFFLINE_ENV,
    LOG_LEVEL: 'silent',
    ...env,
  });
  const container = await createContainer(config, { role: 'worker', engine, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
  await container.start();
  return container;
}

/** An API node in this process whose log lines a test can read. */
export interface LoggedApi {
  app: Express;
  container: Container;
  auth: { Authorization: string };
  /** Parsed pino lines written so far. */
  logs: { level: number; msg: string; [k: string]: unknown }[];
  close(): Promise<void>;
}

export async function startApi(dir: string, env: Record<string, string>, engine: FakeEngine): Promise<LoggedApi> {
  const logs: LoggedApi['logs'] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line) as LoggedApi['logs'][number]);
      done();
    },
  });
  const config = loadConfig({
    DATA_DIR: path.join(dir, 'api-data'),
    LIBRARY_DIR: path.join(dir, 'library'),
    LIBRARY_WATCH: 'false',
    API_KEYS: TEST_API_KEY,
    ANALYSIS_WORKERS: '1',
    ...OFFLINE_ENV,
    ...env,
  });
  const container = await createContainer(config, { engine, logger: pino({ level: 'debug' }, sink) });
  await container.start();
  const http = await buildHttpApp(container);
  return {
    app: http.app,
    container,
    auth: { Authorization: `Bearer ${TEST_API_KEY}` },
    logs,
    async close() {
      await http.stop();
      await container.close();
    },
  };
}

/** Asks `probe` again (every 200 ms, at most `attempts` times) until it answers true. */
export async function eventually(probe: () => Promise<boolean>, attempts = 100): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}
