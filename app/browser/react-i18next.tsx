import {
  cloneElement,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
} from 'react'
import type { TOptions } from './translate.ts'

/**
 * The stand-in for react-i18next (see translate.ts): the provider, the hook, <Trans>. The browser
 * build uses it over the stand-in i18next (app/browser/i18next.ts); the server build over the real
 * i18next instance of the page (app/i18n.server.ts), whose own `t` then writes every string: the
 * real hook's per-call copy of the instance (react-i18next 17's `createI18nWrapper`) was a tenth
 * of a signed-in page's render. app/browser/i18n.test.tsx holds both to react-i18next's output.
 */
type Instance = { language: string; t: (key: string, options?: TOptions) => string }
type Translate = Instance['t']

const I18nContext = createContext<Instance | null>(null)

export const initReactI18next = { type: '3rdParty', init() {} }

export function I18nextProvider({ i18n, children }: { i18n: Instance; children?: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>
}

function useI18n(): Instance {
  const i18n = useContext(I18nContext)
  if (!i18n) throw new Error('i18n used outside I18nextProvider')
  return i18n
}

// i18next's `t` is a method: bound once per instance (instances live as long as the process).
const boundT = new WeakMap<Instance, Translate>()

export function useTranslation() {
  const i18n = useI18n()
  let t = boundT.get(i18n)
  if (!t) {
    t = i18n.t.bind(i18n)
    boundT.set(i18n, t)
  }
  return { t, i18n, ready: true }
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
