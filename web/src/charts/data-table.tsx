import type { ReactNode } from 'react';

/**
 * A chart's numbers as a table, behind a disclosure: what a screen reader user, or anyone who
 * wants exact values, reads instead of the drawing.
 */
export function DataTable({ caption, columns, rows }: { caption: string; columns: readonly string[]; rows: readonly (readonly ReactNode[])[] }) {
  return (
    <details className="data-table">
      <summary>Show the numbers</summary>
      <div className="table-scroll">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              {columns.map((c, i) => (
                <th key={c} scope="col" className={i > 0 ? 'num' : undefined}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) =>
                  i === 0 ? (
                    <th key={i} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={i} className="num">
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
