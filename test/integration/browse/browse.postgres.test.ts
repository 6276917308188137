import { openDatabase } from '../../../src/db/database';
import { POSTGRES_URL, dropSchema, uniqueName } from '../../../measure/store/infra';
import { describeWith } from '../../helpers/describe-with';
import { describeBrowse } from './browse.suite';

describeWith({ postgres: true })('on the real Postgres (a schema of its own per test)', () => {
  const openPostgres = async () => {
    const schema = uniqueName('browse');
    const database = openDatabase(POSTGRES_URL, '/nonexistent', schema);
    return {
      database,
      async close() {
        await database.db.destroy();
        await dropSchema(schema);
      },
    };
  };
  describeBrowse('Postgres', openPostgres);
  describeBrowse('Postgres', openPostgres, { index: true });
});
