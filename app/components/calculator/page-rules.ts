import type { DestinationRules } from '#core/landed-cost/destination-rules.ts'
import type { Language } from '#core/preferences/preferences.ts'

type Bilingual = { es: string; en: string }

function onlyIn(text: Bilingual, language: Language): Bilingual {
  return language === 'es' ? { es: text.es, en: '' } : { es: '', en: text.en }
}

/**
 * The rules in effect as the calculator's island carries them (its props go into the page as
 * JSON): every text in the page's language only, the other left empty, and no version id (the
 * calculator never freezes an estimate). Everything the estimate and the method choice read stays.
 */
export function rulesForPage(rules: DestinationRules, language: Language): DestinationRules {
  return {
    day: rules.day,
    rules: Object.fromEntries(
      Object.entries(rules.rules).map(([country, version]) => [
        country,
        {
          ...version,
          id: '',
          rule: {
            ...version.rule,
            note: onlyIn(version.rule.note, language),
            uncertain: onlyIn(version.rule.uncertain, language),
          },
        },
      ]),
    ),
    methods: Object.fromEntries(
      Object.entries(rules.methods).map(([country, blocks]) => [
        country,
        Object.fromEntries(
          Object.entries(blocks).map(([method, block]) => [
            method,
            { ...block, note: onlyIn(block.note, language) },
          ]),
        ),
      ]),
    ),
  }
}
