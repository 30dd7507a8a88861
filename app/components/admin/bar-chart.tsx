import { useId } from 'react'

/**
 * A small bar chart drawn on the server as SVG (no chart library: docs/decisions/025): one bar
 * per bucket, the highest labelled, the first and last buckets named under it. For screen
 * readers the picture is one image with a summary, and the numbers are a table beside it.
 */
export function BarChart({
  title,
  summary,
  bars,
  columns,
}: {
  title: string
  summary: string
  bars: { label: string; value: number; valueLabel: string }[]
  /** The fallback table's headings: the bucket, the value. */
  columns: [string, string]
}) {
  const id = useId()
  const width = 640
  const height = 180
  const top = 20
  const bottom = 24
  const max = Math.max(1, ...bars.map((bar) => bar.value))
  const slot = width / Math.max(1, bars.length)
  const barWidth = Math.max(1, slot * 0.7)
  const plot = height - top - bottom
  const highest = bars.reduce((best, bar, index) => (bar.value > (bars[best]?.value ?? -1) ? index : best), 0)
  return (
    <figure className="space-y-2">
      <figcaption id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-labelledby={`${id}-svg-title ${id}-desc`}
        className="h-auto w-full max-w-3xl"
      >
        <title id={`${id}-svg-title`}>{title}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        <line x1="0" y1={height - bottom} x2={width} y2={height - bottom} stroke="#475569" strokeWidth="1" />
        {bars.map((bar, index) => {
          const barHeight = (bar.value / max) * plot
          return (
            <rect
              key={bar.label}
              x={index * slot + (slot - barWidth) / 2}
              y={height - bottom - barHeight}
              width={barWidth}
              height={barHeight}
              fill="#b91c1c"
            />
          )
        })}
        {bars[highest] && bars[highest].value > 0 ? (
          <text
            x={Math.min(width - 4, Math.max(4, highest * slot + slot / 2))}
            y={Math.max(12, height - bottom - (bars[highest].value / max) * plot - 6)}
            textAnchor={highest * slot < 60 ? 'start' : highest * slot > width - 60 ? 'end' : 'middle'}
            fontSize="13"
            fill="#0f172a"
          >
            {bars[highest].valueLabel}
          </text>
        ) : null}
        {bars.length > 0 ? (
          <>
            <text x="0" y={height - 6} fontSize="13" fill="#334155">
              {bars[0]?.label}
            </text>
            <text x={width} y={height - 6} fontSize="13" fill="#334155" textAnchor="end">
              {bars.at(-1)?.label}
            </text>
          </>
        ) : null}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{columns[0]}</th>
            <th scope="col">{columns[1]}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.label}>
              <th scope="row">{bar.label}</th>
              <td>{bar.valueLabel}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
