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

/**
 * A store's logo in the guide and the editor: the uploaded one (our own PNG re-encoding, served
 * from /store-logos/) when there is one, else the monogram. Decorative: the name stands beside it.
 */
export function StoreLogo({ url, text, color }: { url: string | null; text: string; color: string }) {
  if (!url) return <StoreMonogram text={text} color={color} />
  return (
    <img
      src={url}
      alt=""
      width={56}
      height={56}
      loading="lazy"
      decoding="async"
      className="size-14 shrink-0 rounded-lg bg-white object-contain"
    />
  )
}
