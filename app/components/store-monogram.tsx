/** A store's logo: our own monogram artwork (letters on a colour), never a trademark image. */
export function StoreMonogram({ text, color }: { text: string; color: string }) {
  return (
    <svg viewBox="0 0 64 64" width="56" height="56" aria-hidden="true" className="shrink-0 rounded-lg">
      <rect width="64" height="64" rx="12" fill={color} />
      <text
        x="32"
        y="33"
        textAnchor="middle"
        dominantBaseline="central"
        fill="#ffffff"
        fontFamily="system-ui, sans-serif"
        fontWeight="700"
        fontSize={text.length > 1 ? 24 : 30}
      >
        {text}
      </text>
    </svg>
  )
}
