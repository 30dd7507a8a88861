import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import { type ImportRuleVersion, ruleInEffect } from './import-rules.ts'

/**
 * What a destination country meets on a given day (issue 30, ADR 046): the import rule in effect
 * and the shipping methods it can use, with why the others are missing. Pure and isomorphic: the
 * server reads it once per page and hands the calculator the same object.
 */

export type MethodBlock = {
  available: boolean
  note: { es: string; en: string }
  source: string
  /** YYYY-MM-DD */
  effectiveFrom: string
}

/** One country's rule in effect, as it travels to a page (dates as text, so it serialises). */
export type RuleInEffect = Omit<ImportRuleVersion, 'createdAt'>

export type DestinationRules = {
  day: string
  /** Country (ISO alpha-2) → the rule in effect on `day`. */
  rules: Record<string, RuleInEffect>
  /** Country → method → why it cannot (or, with a note, can) be used; absent: it can. */
  methods: Record<string, Partial<Record<ShippingMethod, MethodBlock>>>
}

export function rulesForDay(
  stored: {
    versions: readonly ImportRuleVersion[]
    blocks: readonly (MethodBlock & { country: string; method: ShippingMethod })[]
  },
  day: string,
): DestinationRules {
  const byCountry = new Map<string, ImportRuleVersion[]>()
  for (const version of stored.versions) {
    const list = byCountry.get(version.country) ?? []
    list.push(version)
    byCountry.set(version.country, list)
  }
  const rules: DestinationRules['rules'] = {}
  for (const [country, versions] of byCountry) {
    const current = ruleInEffect(versions, day)
    if (current)
      rules[country] = {
        id: current.id,
        country,
        effectiveFrom: current.effectiveFrom,
        rule: current.rule,
      }
  }
  const methods: DestinationRules['methods'] = {}
  for (const block of stored.blocks) {
    // A block dated in the future is not in effect yet.
    if (block.effectiveFrom > day) continue
    const { country, method, ...rest } = block
    methods[country] = { ...methods[country], [method]: rest }
  }
  return { day, rules, methods }
}

export type MethodChoice = {
  method: ShippingMethod
  available: boolean
  note: { es: string; en: string } | null
}

/** Each of our methods for a country: whether it can be used and, when not, why. */
export function methodsFor(rules: Pick<DestinationRules, 'methods'>, country: string | null): MethodChoice[] {
  const blocks = country ? rules.methods[country] : undefined
  return SHIPPING_METHODS.map((method) => {
    const block = blocks?.[method]
    return { method, available: block ? block.available : true, note: block ? block.note : null }
  })
}

export function canUseMethod(
  rules: Pick<DestinationRules, 'methods'>,
  country: string | null,
  method: ShippingMethod,
): boolean {
  return methodsFor(rules, country).some((choice) => choice.method === method && choice.available)
}

/** The part of the rules one country needs (what a page sends to the browser). */
export function rulesForCountry(rules: DestinationRules, country: string): DestinationRules {
  const rule = rules.rules[country]
  const methods = rules.methods[country]
  return {
    day: rules.day,
    rules: rule ? { [country]: rule } : {},
    methods: methods ? { [country]: methods } : {},
  }
}
