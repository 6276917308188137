import 'reflect-metadata';
import { OFFLINE_ENV } from '../helpers/offline-env';

// Processes a test spawns (cluster.test.ts, faults.test.ts) read their config from this environment.
for (const [name, value] of Object.entries(OFFLINE_ENV)) process.env[name] ??= value;
