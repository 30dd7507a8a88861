import {
  cloneElement,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
} from 'react'
import type { BrowserI18n } from './i18next.ts'
import type { TOptions } from './translate.ts'

/** The browser's stand-in for react-i18next (see translate.ts): the provider, the hook, <Trans>. */
const I18nContext = createContext<BrowserI18n | null>(null)

export const initReactI18next = { type: '3rdParty', init() {} }

export function I18nextProvider({ i18n, children }: { i18n: BrowserI18n; children?: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>
}

function useI18n(): BrowserI18n {
  const i18n = useContext(I18nContext)
  if (!i18n) throw new Error('i18n used outside I18nextProvider')
  return i18n
}

export function useTranslation() {
  const i18n = useI18n()
  return { t: i18n.t, i18n, ready: true }
}

const TAG = /<([a-zA-Z][\w-]*)>([\s\S]*?)<\/\1>/g

/**
 * Named components only (`components={{ address: <strong /> }}` for "<address>…</address>"), as
 * the app uses it; the text between the tags becomes the component's child.
 */
export function Trans({
  i18nKey,
  values,
  components = {},
}: {
  i18nKey: string
  values?: TOptions
  components?: Record<string, ReactElement>
}) {
  const text = useI18n().t(i18nKey, values)
  const nodes: ReactNode[] = []
  let last = 0
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', inner = ''] = match
    if (match.index > last) nodes.push(text.slice(last, match.index))
    const component = components[name]
    nodes.push(isValidElement(component) ? cloneElement(component, { key: match.index }, inner) : whole)
    last = match.index + whole.length
  }
  if (last < text.length) nodes.push(text.slice(last))
  return <>{nodes}</>
}
