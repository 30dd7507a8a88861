/**
 * What a conversation message may be, without the code that checks its files (the browser's
 * form reads these too): docs/decisions/048.
 */

/** Longest message body, in characters. */
export const MESSAGE_MAX_CHARS = 4000
/** Most files on one message: photos, or one PDF alone. */
export const MESSAGE_MAX_FILES = 4
/** Largest file, in bytes (a photo's limit, core/uploads/photo-rules.ts, and a PDF's). */
export const MESSAGE_FILE_MAX_BYTES = 5 * 1024 * 1024
/** For `<input type="file" accept=…>`: photos and PDF. */
export const MESSAGE_FILE_ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf'

/** Field errors of the message form, each a text under `<prefix>.errors` in the locale files. */
export const MESSAGE_REFUSALS = [
  'empty',
  'tooLong',
  'tooManyFiles',
  'pdfAlone',
  'fileType',
  'fileTooLarge',
  'fileCorrupt',
] as const
export type MessageRefusal = (typeof MESSAGE_REFUSALS)[number]

export type MessagePart = { kind: 'text'; text: string } | { kind: 'link'; href: string; text: string }

const LINK = /https?:\/\/[^\s<>"'`]+/gi
/** Punctuation that ends a sentence rather than a link. */
const TRAILING = /[.,;:!?)\]}'"»]+$/

/**
 * A message's text as parts to render: plain text, and http(s) links made into links. The text
 * is never HTML: a part is rendered as text by React, a link's address checked to be http(s).
 */
export function messageParts(body: string): MessagePart[] {
  const parts: MessagePart[] = []
  let last = 0
  for (const match of body.matchAll(LINK)) {
    const start = match.index ?? 0
    let href = match[0]
    const trailing = TRAILING.exec(href)
    if (trailing) href = href.slice(0, href.length - trailing[0].length)
    if (!isHttpUrl(href)) continue
    if (start > last) parts.push({ kind: 'text', text: body.slice(last, start) })
    parts.push({ kind: 'link', href, text: href })
    last = start + href.length
  }
  if (last < body.length) parts.push({ kind: 'text', text: body.slice(last) })
  return parts
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

/** The message form's whole body: its files and a little more (server/app.ts allows it there). */
export const MESSAGE_FORM_BODY_BYTES = MESSAGE_MAX_FILES * MESSAGE_FILE_MAX_BYTES + 64 * 1024
