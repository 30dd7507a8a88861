import { data } from 'react-router'
import { formatGrams, japanDateTime } from '#app/lib/dates.ts'
import { actionFailure } from '#app/lib/http-errors.ts'
import { formatMoney } from '#core/money/money.ts'
import type { Language } from '#core/preferences/preferences.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import type { DeclarationView } from '#core/shipping/customs-declaration.ts'
import { editDeclaration, reviewDeclaration } from '#core/shipping/customs-declaration.ts'
import { formatHsCode } from '#core/shipping/customs-declaration-rules.ts'

// The customs declaration (issue 30) as both shipment pages and the printable page show it: yen,
// grams and dates written out in the page's language, HS codes with their dots; and the one
// action both pages' declaration forms post to.

export function declarationForPage(view: DeclarationView, language: Language) {
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return {
    form: view.totals.form,
    locked: view.locked,
    version: view.version === null ? '' : String(view.version),
    confirmedLabel: view.confirmedAt ? japanDateTime(language)(view.confirmedAt) : null,
    lines: view.lines.map((line) => ({
      itemId: line.itemId,
      position: line.position,
      description: line.description,
      quantity: line.quantity,
      value: yen(line.valueJpy),
      weight: line.netWeightG === null ? null : formatGrams(line.netWeightG, language),
      hsCode: line.hsCode ? formatHsCode(line.hsCode) : '',
      origin: line.originCountry,
    })),
    totals: {
      quantity: view.totals.quantity,
      value: yen(view.totals.valueJpy),
      weight: view.totals.netWeightG === null ? null : formatGrams(view.totals.netWeightG, language),
      missing: view.totals.missingDescriptions,
      exportDeclaration: view.totals.exportDeclaration,
    },
  }
}

export type DeclarationForPage = ReturnType<typeof declarationForPage>

/** The intents of the declaration's forms: the customer's save and confirm, staff's save. */
export const DECLARATION_INTENTS = ['declaration_save', 'declaration_confirm', 'declaration_staff'] as const
export type DeclarationIntent = (typeof DECLARATION_INTENTS)[number]

/** The customer's page posts `declaration_save` and `declaration_confirm`, staff's `declaration_staff`. */
export function isDeclarationIntent(value: unknown, area: 'customer' | 'staff'): value is DeclarationIntent {
  if (!DECLARATION_INTENTS.includes(value as DeclarationIntent)) return false
  return (value === 'declaration_staff') === (area === 'staff')
}

/**
 * A declaration form's post: its lines read as they were sent (one `itemId`, `description` and,
 * from staff, `hsCode` per line, in order), passed to the service, which checks them all before
 * it writes anything. Answers `{ intent: 'declaration', saved }`, or the refusal with its field
 * errors and what was typed (to show again).
 */
export async function declarationAction(
  services: ServiceContext,
  shipmentId: string,
  intent: DeclarationIntent,
  form: FormData,
) {
  const itemIds = form.getAll('itemId')
  const descriptions = form.getAll('description')
  const hsCodes = form.getAll('hsCode')
  const lines = itemIds.map((itemId, index) => ({
    itemId,
    description: descriptions[index] ?? '',
    ...(intent === 'declaration_staff' ? { hsCode: hsCodes[index] ?? '' } : {}),
  }))
  const input = { id: shipmentId, version: form.get('version'), lines }
  const typed = {
    descriptions: descriptions.map((value) => (typeof value === 'string' ? value.slice(0, 500) : '')),
    hsCodes: hsCodes.map((value) => (typeof value === 'string' ? value.slice(0, 40) : '')),
  }
  try {
    if (intent === 'declaration_staff') await editDeclaration(services, input)
    else await reviewDeclaration(services, { ...input, confirm: intent === 'declaration_confirm' })
  } catch (error) {
    return actionFailure(error, { intent: 'declaration' as const, typed })
  }
  return data({
    intent: 'declaration' as const,
    saved: intent === 'declaration_confirm' ? ('confirmed' as const) : ('saved' as const),
  })
}
