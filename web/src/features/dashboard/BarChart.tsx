import { useId } from 'react';

export interface ChartSeries {
  name: string;
  /** Tailwind fill class of the bars, e.g. "fill-primary". */
  fill: string;
  /** Tailwind background class of the legend swatch. */
  swatch: string;
}

export interface ChartPoint {
  label: string;
  /** A longer label for tooltips and the screen-reader table. */
  fullLabel: string;
  values: number[];
}

/** A round upper bound for the axis whose half is a whole number too: 2, 4, 10, 20, 40, 50, 100… */
export function niceMax(value: number): number {
  if (value <= 2) return 2;
  const power = 10 ** Math.floor(Math.log10(value));
  // 5 × 10^n only from 50 up, where its half is still whole.
  const steps = power >= 10 ? [1, 2, 4, 5, 10] : [1, 2, 4, 10];
  for (const step of steps) if (value <= step * power && step * power >= 2) return step * power;
  return 10 * power;
}

const GROUP = 10;
const HEIGHT = 100;

/**
 * A small grouped bar chart: SVG bars stretched to the box (crisp at any width), HTML labels,
 * native tooltips on each bar and a visually hidden table for screen readers.
 */
export function BarChart({
  title,
  points,
  series,
  formatValue,
}: {
  title: string;
  points: ChartPoint[];
  series: ChartSeries[];
  formatValue: (value: number) => string;
}) {
  const id = useId();
  const max = niceMax(Math.max(0, ...points.flatMap((p) => p.values)));
  const width = points.length * GROUP;
  const inner = GROUP * 0.7;
  const barWidth = inner / Math.max(1, series.length);
  return (
    <figure className="flex flex-col gap-3" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="sr-only">
        {title}
      </figcaption>
      <div className="flex gap-2">
        <div
          className="flex h-40 flex-col justify-between py-0 text-end text-[11px] tabular-nums leading-none text-muted-foreground"
          aria-hidden="true"
        >
          <span>{formatValue(max)}</span>
          <span>{formatValue(max / 2)}</span>
          <span>0</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            viewBox={`0 0 ${width} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-40 w-full overflow-visible"
            role="presentation"
            aria-hidden="true"
          >
            {[0, 0.5, 1].map((f) => (
              <line
                key={f}
                x1={0}
                x2={width}
                y1={HEIGHT * f}
                y2={HEIGHT * f}
                className="stroke-border"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
                strokeDasharray={f === 1 ? undefined : '3 3'}
              />
            ))}
            {points.map((point, i) =>
              point.values.map((value, s) => {
                const h = (value / max) * HEIGHT;
                const x = i * GROUP + (GROUP - inner) / 2 + s * barWidth;
                return (
                  <rect
                    key={`${i}-${s}`}
                    x={x + barWidth * 0.08}
                    y={HEIGHT - h}
                    width={barWidth * 0.84}
                    height={Math.max(h, value > 0 ? 0.8 : 0)}
                    rx={0.6}
                    className={series[s]?.fill}
                  >
                    <title>{`${point.fullLabel} · ${series[s]?.name}: ${formatValue(value)}`}</title>
                  </rect>
                );
              }),
            )}
          </svg>
          <div
            className="mt-1.5 grid text-center text-[11px] text-muted-foreground"
            style={{ gridTemplateColumns: `repeat(${points.length}, minmax(0, 1fr))` }}
            aria-hidden="true"
          >
            {points.map((p) => (
              <span key={p.fullLabel} className="truncate">
                {p.label}
              </span>
            ))}
          </div>
        </div>
      </div>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden="true">
        {series.map((s, i) => (
          <li key={s.name} className="flex items-center gap-1.5">
            <span className={`size-2.5 rounded-sm ${s.swatch}`} />
            {s.name}
            <span className="tabular-nums text-foreground">
              {formatValue(points.reduce((sum, p) => sum + (p.values[i] ?? 0), 0))}
            </span>
          </li>
        ))}
      </ul>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{title}</th>
            {series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.fullLabel}>
              <th scope="row">{p.fullLabel}</th>
              {p.values.map((v, i) => (
                <td key={i}>{formatValue(v)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
