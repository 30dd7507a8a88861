/**
 * What the browser needs of i18next's `t`, in under two kilobytes (docs/decisions/032-…): the
 * server keeps i18next itself; the browser build resolves `i18next` and `react-i18next` to this
 * folder (vite.config.ts). It must give exactly the server's strings, or hydration would not
 * match: app/browser/i18n.test.tsx compares the two over every key of every browser bundle.
 *
 * Covered, as i18next does it: nested keys ("a.b.c"); `count` plurals (`_zero` for 0 when
 * present, then the language's `Intl.PluralRules` suffix, then the bare key; no fallback from
 * `_many` to `_other`, as i18next); `{{name}}` interpolation without escaping (the app sets
 * `escapeValue: false`: React escapes), nested values ("{{a.b}}"), a variable not passed left
 * as written, one passed as undefined or null written as nothing; `defaultValue`; a missing key
 * returns the key. Not covered (not used by browser strings): namespaces, context, ordinal,
 * formatting ("{{x, number}}"), nesting ("$t(…)"), returning objects.
 */
export type Resources = Record<string, unknown>
export type TOptions = Record<string, unknown> & { count?: unknown; defaultValue?: unknown }

const pluralRules = new Map<string, Intl.PluralRules>()

function pluralSuffix(language: string, count: number): string {
  let rules = pluralRules.get(language)
  if (!rules) {
    rules = new Intl.PluralRules(language)
    pluralRules.set(language, rules)
  }
  return `_${rules.select(count)}`
}

function lookup(resources: Resources, key: string): unknown {
  let node: unknown = resources
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

function resolve(resources: Resources, language: string, key: string, options?: TOptions): unknown {
  const count = options?.count
  if (count !== undefined && typeof count !== 'string') {
    if (count === 0) {
      const zero = lookup(resources, `${key}_zero`)
      if (zero !== undefined) return zero
    }
    const plural = lookup(resources, `${key}${pluralSuffix(language, Number(count))}`)
    if (plural !== undefined) return plural
  }
  return lookup(resources, key)
}

const VARIABLE = /\{\{(.+?)\}\}/g

export function interpolate(text: string, options: TOptions | undefined): string {
  if (!options) return text
  return text.replace(VARIABLE, (whole, name: string) => {
    const variable = name.trim()
    const value = lookup(options, variable)
    if (value === undefined) return Object.hasOwn(options, variable) ? '' : whole
    return value === null ? '' : String(value)
  })
}

export function translate(resources: Resources, language: string, key: string, options?: TOptions): string {
  let found = resolve(resources, language, key, options)
  if (found === undefined || found === null) found = options?.defaultValue
  if (found === undefined || found === null) return key
  return typeof found === 'string' ? interpolate(found, options) : String(found)
}

export function exists(resources: Resources, language: string, key: string, options?: TOptions): boolean {
  const found = resolve(resources, language, key, options)
  return found !== undefined && found !== null
}

/** Merges a bundle into the resources, deep, without overwriting (as addResourceBundle(…, true, false)). */
export function merge(target: Resources, source: Resources, overwrite: boolean): void {
  for (const [name, value] of Object.entries(source)) {
    const current = target[name]
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (!current || typeof current !== 'object') target[name] = {}
      merge(target[name] as Resources, value as Resources, overwrite)
    } else if (overwrite || current === undefined) {
      target[name] = value
    }
  }
}
