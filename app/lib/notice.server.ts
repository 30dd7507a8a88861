import { type RouterContextProvider, redirect } from 'react-router'
import { translator } from '#app/i18n.server.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { flashCookie } from './cookies.server.ts'
import { NOTICES, type Notice, type NoticeName, type ShownNotice } from './notice.ts'

/**
 * How every change ends (post/redirect/get): to `to`, with its notice in the one-shot flash
 * cookie (app/lib/notice.ts); `setCookies` are the change's own (a session started or ended),
 * `headers` any other (a payment's return is never cached).
 */
export async function redirectWithNotice(
  context: Readonly<RouterContextProvider>,
  to: string,
  notice: Notice | NoticeName,
  {
    setCookies = [],
    headers: extra = {},
  }: { setCookies?: readonly string[]; headers?: Record<string, string> } = {},
) {
  const headers = new Headers(extra)
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie)
  headers.append('Set-Cookie', await flashCookie(context, notice))
  return redirect(to, { headers })
}

/** The notice in the visitor's language, for the root loader (shown by NoticeToast). */
export function shownNotice(notice: Notice | null, language: Language): ShownNotice | null {
  if (!notice) return null
  const spec: { title: string; text?: string; failure?: true; terms?: Record<string, string> } =
    NOTICES[notice.name]
  const t = translator(language)
  const params = { ...notice.params }
  for (const [param, prefix] of Object.entries(spec.terms ?? {})) {
    const word = params[param]
    if (word && /^[a-z_]{1,40}$/.test(word)) params[param] = t(`${prefix}${word}` as 'session.roles.user')
  }
  return {
    title: t(spec.title, params),
    text: spec.text ? t(spec.text, params) : null,
    failure: spec.failure === true,
  }
}
