import { useQuery } from '@apollo/client/react';
import { useId, useMemo, useState } from 'react';
import { usePageTitle } from '../app/page';
import { UsageChart } from '../charts/usage.chart';
import { fillDays, type DayCount } from '../charts/usage.days';
import { problemOf } from '../graphql/problem';
import { AdminGuard } from './admin.guard';
import { UsageDocument } from '../gql/graphql';

const RANGES = [7, 30, 90] as const;

function Usage() {
  const id = useId();
  const [days, setDays] = useState<number>(30);
  const { data, loading, error } = useQuery(UsageDocument, { variables: { days } });
  const perKey = useMemo(() => {
    const keys = new Map<string, { name: string; rows: DayCount[] }>();
    for (const row of data?.usage ?? []) {
      const entry = keys.get(row.keyId) ?? { name: row.name, rows: [] };
      entry.rows.push(row);
      keys.set(row.keyId, entry);
    }
    const today = new Date();
    return [...keys].map(([keyId, { name, rows }]) => ({ keyId, name, days: fillDays(rows, days, today) }));
  }, [data, days]);

  return (
    <>
      <div className="field inline">
        <label htmlFor={`${id}-days`}>Period</label>
        <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))}>
          {RANGES.map((d) => (
            <option key={d} value={d}>
              last {d} days
            </option>
          ))}
        </select>
      </div>
      {loading && <p role="status">Loading usage…</p>}
      {error && (
        <p className="error" role="alert">
          {problemOf(error).message}
        </p>
      )}
      {data && perKey.length === 0 && <p>No requests in this period.</p>}
      {perKey.map((k) => (
        <UsageChart key={k.keyId} title={`${k.name} (${k.keyId})`} days={k.days} />
      ))}
    </>
  );
}

/** Requests and analyses per key per day. A read key sees its own, an admin key every key's. */
export function UsagePage() {
  usePageTitle('Usage');
  return (
    <section>
      <h1 id="usage-title" tabIndex={-1}>
        Usage
      </h1>
      <AdminGuard adminOnly={false}>
        <Usage />
      </AdminGuard>
    </section>
  );
}
