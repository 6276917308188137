import { useId, useState, type KeyboardEvent } from 'react';
import { useContainerWidth } from '../charts/container-width';
import { DataTable } from '../charts/data-table';
import type { TrackDetailFragment } from '../gql/graphql';
import { clock, keyName, ticks } from '../lib/format';
import { stepSelection, timelineDomain } from './timeline.geometry';

type Timeline = TrackDetailFragment['timeline'];
type Section = Timeline['sections'][number];

const LEFT = 70;
const RIGHT = 12;
const LANES = { sections: [8, 52], bars: [62, 92], beats: [100, 120], axis: 128 } as const;
const HEIGHT = 150;

function describeSection(s: Section, i: number, count: number, pitchClasses: readonly string[]): string {
  return `Section ${i + 1} of ${count}: ${clock(s.start)} to ${clock(s.start + s.duration)}, ${Math.round(s.tempo)} BPM, ${keyName(pitchClasses, s.key, s.mode)}, ${s.loudness.toFixed(1)} LUFS`;
}

/**
 * Sections, bars and beats over time. The sections are a keyboard-operable selection (arrow
 * keys, Home, End) whose current item is announced; every section is also in the table.
 */
export function TimelineChart({ timeline, durationMs, pitchClasses }: { timeline: Timeline; durationMs: number; pitchClasses: readonly string[] }) {
  const id = useId();
  const [selected, setSelected] = useState(-1);
  const [ref, width] = useContainerWidth<HTMLDivElement>(720);
  const { sections, bars, beats } = timeline;
  const { from, to } = timelineDomain([...sections, ...bars, ...beats], durationMs / 1000);
  const plot = width - LEFT - RIGHT;
  const x = (t: number): number => LEFT + ((t - from) / (to - from)) * plot;
  // About one labelled tick per 64 px: 0:00 0:10 0:20 on a phone, more on a desktop.
  const axis = ticks(to - from, Math.max(2, Math.floor(plot / 64))).map((d) => from + d);
  const current = sections[selected];

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const next = stepSelection(event.key, selected, sections.length);
    if (next === undefined) return;
    event.preventDefault();
    setSelected(next);
  }

  const summary = `${sections.length} section${sections.length === 1 ? '' : 's'}, ${bars.length} bars and ${beats.length} beats from ${clock(from)} to ${clock(to)}`;
  return (
    <figure className="chart timeline-chart">
      <figcaption id={`${id}-title`}>Timeline</figcaption>
      <p className="chart-note">{summary}.</p>
      <div
        ref={ref}
        className="timeline-focus"
        role="group"
        tabIndex={sections.length > 0 ? 0 : -1}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-help ${id}-readout`}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (selected < 0 && sections.length > 0) setSelected(0);
        }}
      >
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true">
          <text className="lane-label" x={LEFT - 8} y={(LANES.sections[0] + LANES.sections[1]) / 2} textAnchor="end" dominantBaseline="central">
            Sections
          </text>
          <text className="lane-label" x={LEFT - 8} y={(LANES.bars[0] + LANES.bars[1]) / 2} textAnchor="end" dominantBaseline="central">
            Bars
          </text>
          <text className="lane-label" x={LEFT - 8} y={(LANES.beats[0] + LANES.beats[1]) / 2} textAnchor="end" dominantBaseline="central">
            Beats
          </text>
          {sections.map((s, i) => {
            const x0 = x(s.start);
            const w = Math.max(1, x(s.start + s.duration) - x0);
            return (
              <g key={`s${i}`} className={`section tone-${i % 4}${i === selected ? ' selected' : ''}`} onClick={() => setSelected(i)}>
                <rect x={x0} y={LANES.sections[0]} width={w} height={LANES.sections[1] - LANES.sections[0]} rx={3}>
                  <title>{describeSection(s, i, sections.length, pitchClasses)}</title>
                </rect>
                {w > 56 && (
                  <text x={x0 + 6} y={(LANES.sections[0] + LANES.sections[1]) / 2} dominantBaseline="central">
                    {`${i + 1} · ${keyName(pitchClasses, s.key, s.mode).replace('major', 'maj').replace('minor', 'min')}`}
                  </text>
                )}
              </g>
            );
          })}
          {bars.map((b, i) => (
            <line key={`b${i}`} className="bar-line" x1={x(b.start)} x2={x(b.start)} y1={LANES.bars[0]} y2={LANES.bars[1]} />
          ))}
          {beats.map((b, i) => (
            <line
              key={`t${i}`}
              className="beat-line"
              x1={x(b.start)}
              x2={x(b.start)}
              y1={LANES.beats[0]}
              y2={LANES.beats[1]}
              strokeOpacity={0.35 + 0.65 * Math.max(0, Math.min(1, b.confidence))}
            />
          ))}
          <line className="axis" x1={LEFT} x2={width - RIGHT} y1={LANES.axis} y2={LANES.axis} />
          {axis.map((t) => (
            <g key={t}>
              <line className="axis" x1={x(t)} x2={x(t)} y1={LANES.axis} y2={LANES.axis + 4} />
              <text className="tick" x={x(t)} y={LANES.axis + 15} textAnchor="middle">
                {clock(t)}
              </text>
            </g>
          ))}
        </svg>
      </div>
      <p id={`${id}-help`} className="chart-note">
        {sections.length > 0 ? 'Focus the timeline and use the arrow keys, Home and End to step through its sections.' : 'No sections were found.'}
      </p>
      <p id={`${id}-readout`} className="readout" aria-live="polite">
        {current ? describeSection(current, selected, sections.length, pitchClasses) : ''}
      </p>
      <DataTable
        caption="Sections"
        columns={['Section', 'Start', 'End', 'Tempo (BPM)', 'Key', 'Loudness (LUFS)']}
        rows={sections.map((s, i) => [String(i + 1), clock(s.start), clock(s.start + s.duration), Math.round(s.tempo), keyName(pitchClasses, s.key, s.mode), s.loudness.toFixed(1)])}
      />
    </figure>
  );
}
