import { POSTGRES_URL, REDIS_AVAILABLE, REDIS_URL } from '../../measure/store/infra';

/** `describe`, or `describe.skip` with a message saying which server is missing. */
export function describeWith(needs: { redis?: boolean; postgres?: boolean }): jest.Describe {
  const missing = [
    ...(needs.redis && !REDIS_AVAILABLE ? [`Redis at ${REDIS_URL}`] : []),
    ...(needs.postgres && !POSTGRES_URL ? ['Postgres at 127.0.0.1:5432/test'] : []),
  ];
  if (missing.length === 0) return describe;
  process.stderr.write(`skipping tests that need ${missing.join(' and ')}: not reachable\n`);
  return describe.skip;
}
