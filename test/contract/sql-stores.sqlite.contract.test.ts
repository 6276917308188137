import { SqlSourceTrackStore } from '../../src/analysis/store/source-tracks.store';
import { SqlApiKeyStore } from '../../src/auth/api-key.store';
import { SqlUsageStore } from '../../src/usage/usage.store';
import { SqlWebhookStore } from '../../src/webhooks/webhook.store';
import { describeApiKeyStoreContract } from './api-key.store.contract';
import { sqliteDatabase, storeOn } from './sql-database';
import { describeSourceTrackStoreContract } from './source-tracks.store.contract';
import { describeUsageStoreContract } from './usage.store.contract';
import { describeWebhookStoreContract } from './webhook.store.contract';

// The analysis store's contract runs in store.sqlite.contract.test.ts.
describeApiKeyStoreContract('SQLite', storeOn(sqliteDatabase, (database) => new SqlApiKeyStore(database)));
describeUsageStoreContract('SQLite', storeOn(sqliteDatabase, (database) => new SqlUsageStore(database)));
describeWebhookStoreContract('SQLite', storeOn(sqliteDatabase, (database) => new SqlWebhookStore(database)));
describeSourceTrackStoreContract('SQLite', storeOn(sqliteDatabase, (database) => new SqlSourceTrackStore(database)));
