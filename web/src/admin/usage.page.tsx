import { useQuery } from '@apollo/client/react';
import { useId, useMemo, useState } from 'react';
import { usePageTitle } from '../app/page';
import { UsageChart } from '../charts/usage.chart';
import { fillDays, type DayCount } from '../charts/usage.days';
import { problemOf } from '../graphql/problem';
import { AdminGuard } from './admin.guard';
import { UsageDocument } from '../gql/graphql';

const RANGES = [7, 30, 90] as const;

/** Bytes as people read them: 38.2 MB. */
function sizeOf(bytes: number): string {
  const units = ['bytes', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} ${units[0]}` : `${value.toFixed(1)} ${units[unit]}`;
}

function Usage() {
  const id = useId();
  const [days, setDays] = useState<number>(30);
  const { data, loading, error } = useQuery(UsageDocument, { variables: { days } });
  const perKey = useMemo(() => {
    const keys = new Map<string, { name: string; rows: DayCount[]; uploads: number; uploadBytes: number }>();
    for (const row of data?.usage ?? []) {
      const entry = keys.get(row.keyId) ?? { name: row.name, rows: [], uploads: 0, uploadBytes: 0 };
      entry.rows.push(row);
      entry.uploads += row.uploads;
      entry.uploadBytes += row.uploadBytes;
      keys.set(row.keyId, entry);
    }
    const today = new Date();
    return [...keys].map(([keyId, { name, rows, uploads, uploadBytes }]) => ({ keyId, name, uploads, uploadBytes, days: fillDays(rows, days, today) }));
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
        <div key={k.keyId}>
          <UsageChart title={`${k.name} (${k.keyId})`} days={k.days} />
          {k.uploads > 0 && (
            <p className="chart-note">
              Uploads in this period: {k.uploads} ({sizeOf(k.uploadBytes)})
            </p>
          )}
        </div>
      ))}
    </>
  );
}

/** Requests and analyses per key per day, and the uploads of the period. A read key sees its own, an admin key every key's. */
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
