/** A path on this site, or the fallback: never an absolute or protocol-relative address. */
export function safeRedirect(value: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  const path = typeof value === 'string' ? value : ''
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\')
    ? path.slice(0, 500)
    : fallback
}
