import type { Language } from '#core/preferences/preferences.ts'

/**
 * The locale files are split by area, so a page loads only the strings it can show, in its own
 * language. `common` (header, footer, toasts, errors, guards) goes with every page. A route names
 * the other areas it needs in its `handle` (`export const handle = areas('account')`; a layout's
 * handle covers its whole branch). `emails` is server-only and is never listed here.
 */
export const PAGE_AREAS = ['public', 'account', 'admin'] as const
export type PageArea = (typeof PAGE_AREAS)[number]
export type BundleName = 'common' | PageArea

export type AreasHandle = { i18nAreas: PageArea[] }

export function areas(...names: PageArea[]): AreasHandle {
  return { i18nAreas: names }
}

/** The bundles a page with these route matches needs, common first, each once, in a fixed order. */
export function bundlesFor(matches: readonly { handle?: unknown }[]): BundleName[] {
  const named = new Set<PageArea>()
  for (const match of matches) {
    const handle = match.handle as Partial<AreasHandle> | undefined
    for (const area of handle?.i18nAreas ?? []) named.add(area)
  }
  return ['common', ...PAGE_AREAS.filter((area) => named.has(area))]
}

type Bundle = { default: object }

/** Code-split: the browser downloads a bundle the first time a page of its area is shown. */
export const BUNDLES: Record<Language, Record<BundleName, () => Promise<Bundle>>> = {
  es: {
    common: () => import('./es/common.ts'),
    public: () => import('./es/public.ts'),
    account: () => import('./es/account.ts'),
    admin: () => import('./es/admin.ts'),
  },
  en: {
    common: () => import('./en/common.ts'),
    public: () => import('./en/public.ts'),
    account: () => import('./en/account.ts'),
    admin: () => import('./en/admin.ts'),
  },
}

/**
 * The shape of a Spanish area file: the English file's keys, plus `x_many` beside each plural
 * `x_other`. i18next picks a plural's string by the language's CLDR categories: English has
 * `one` and `other`, Spanish also `many` (1,000,000; 2,000,000…), and a missing one shows the key.
 */
export type SpanishStrings<T> = {
  [K in keyof T]: T[K] extends string ? string : SpanishStrings<T[K]>
} & {
  [K in keyof T as K extends `${infer Base}_other` ? `${Base}_many` : never]: string
}
