import { SqlSourceTrackStore } from '../../src/analysis/store/source-tracks.store';
import { SqlApiKeyStore } from '../../src/auth/api-key.store';
import { SqlUsageStore } from '../../src/usage/usage.store';
import { SqlWebhookStore } from '../../src/webhooks/webhook.store';
import { describeWith } from '../helpers/describe-with';
import { describeApiKeyStoreContract } from './api-key.store.contract';
import { postgresDatabase, storeOn } from './sql-database';
import { describeSourceTrackStoreContract } from './source-tracks.store.contract';
import { describeUsageStoreContract } from './usage.store.contract';
import { describeWebhookStoreContract } from './webhook.store.contract';

// The analysis store's contract runs in store.postgres.contract.test.ts.
describeWith({ postgres: true })('on the real Postgres (a schema of its own per test)', () => {
  describeApiKeyStoreContract('Postgres', storeOn(() => postgresDatabase('keys'), (database) => new SqlApiKeyStore(database)));
  describeUsageStoreContract('Postgres', storeOn(() => postgresDatabase('usage'), (database) => new SqlUsageStore(database)));
  describeSourceTrackStoreContract('Postgres', storeOn(() => postgresDatabase('source_tracks'), (database) => new SqlSourceTrackStore(database)));
  describeWebhookStoreContract('Postgres', storeOn(() => postgresDatabase('webhooks'), (database) => new SqlWebhookStore(database)));
});
