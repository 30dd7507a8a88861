import type { Language } from '#core/preferences/preferences.ts'

/** A text customers read, in each language (settings, public pages; ADR 038). */
export type Bilingual = { es: string; en: string }

/** A bilingual text in the reader's language; a text stored before it was bilingual, as it is. */
export function inLanguage(value: string | Bilingual, language: Language): string {
  return typeof value === 'string' ? value : value[language]
}
