import { exists, merge, type Resources, type TOptions, translate } from './translate.ts'

/** The browser's stand-in for an i18next instance: what app/i18n.ts and the components use. */
export class BrowserI18n {
  language = 'es'
  private resources: Resources = {}

  use(_plugin: unknown): this {
    return this
  }

  init(options: { lng?: string; resources?: Record<string, { translation?: Resources }> }): this {
    if (options.lng) this.language = options.lng
    const own = options.resources?.[this.language]?.translation
    if (own) merge(this.resources, own, true)
    return this
  }

  addResourceBundle(
    language: string,
    _namespace: string,
    bundle: Resources,
    _deep = true,
    overwrite = false,
  ): this {
    if (language === this.language) merge(this.resources, bundle, overwrite)
    return this
  }

  /** Left to right for both languages the site speaks. */
  dir(_language?: string): 'ltr' {
    return 'ltr'
  }

  exists = (key: string, options?: TOptions): boolean => exists(this.resources, this.language, key, options)

  t = (key: string, options?: TOptions): string => translate(this.resources, this.language, key, options)
}

export function createInstance(): BrowserI18n {
  return new BrowserI18n()
}

export default { createInstance }
