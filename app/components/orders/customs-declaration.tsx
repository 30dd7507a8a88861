import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import type { DeclarationForPage } from '#app/lib/declaration-views.server.ts'
import { DESCRIPTION_MAX } from '#core/shipping/customs-declaration-rules.ts'

// A shipment's customs declaration (issue 30) on the customer's and the staff's shipment pages:
// the lines (description, quantity, the value paid, net weight, HS code, origin Japan) and their
// totals; the customer's form to write the descriptions and confirm, staff's to correct them and
// add HS codes; read-only once the shipment is packed.

/** What a declaration form's post answered (app/lib/declaration-views.server.ts). */
export type DeclarationAnswer = {
  saved?: 'saved' | 'confirmed'
  fieldErrors?: Record<string, string[]>
  typed?: { descriptions: string[]; hsCodes: string[] }
} | null

const FIELD_ERRORS = new Set([
  'invalid',
  'descriptionRequired',
  'descriptionTooLong',
  'descriptionLetters',
  'descriptionVague',
  'hsCodeInvalid',
  'locked',
])

/** A field's problem under `declaration.errors` (an unknown key reads as `invalid`). */
function fieldError(t: TFunction, key: string | undefined): string | null {
  if (!key) return null
  const known = FIELD_ERRORS.has(key) ? key : 'invalid'
  return t(`declaration.errors.${known}` as 'declaration.errors.invalid', { max: DESCRIPTION_MAX })
}

const buttonClass = 'min-h-11 rounded-md px-4 font-semibold'

/** The lines as a table, with their totals; `edit` renders a line's editable cells instead. */
export function DeclarationTable({
  declaration,
  showHs = true,
  caption,
}: {
  declaration: DeclarationForPage
  showHs?: boolean
  caption?: string
}) {
  const { t } = useTranslation()
  return (
    // Wider than a phone: the table scrolls sideways, and can be scrolled from the keyboard.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take keyboard focus
    <div className="overflow-x-auto" tabIndex={0}>
      <table className="w-full min-w-[36rem] border-collapse text-left text-sm text-slate-900">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr className="border-b border-slate-400">
            <th scope="col" className="py-2 pr-2">
              #
            </th>
            <th scope="col" className="py-2 pr-2">
              {t('declaration.columns.description')}
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              {t('declaration.columns.quantity')}
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              {t('declaration.columns.weight')}
            </th>
            <th scope="col" className="py-2 pr-2 text-right">
              {t('declaration.columns.value')}
            </th>
            {showHs ? (
              <th scope="col" className="py-2 pr-2">
                {t('declaration.columns.hsCode')}
              </th>
            ) : null}
            <th scope="col" className="py-2">
              {t('declaration.columns.origin')}
            </th>
          </tr>
        </thead>
        <tbody>
          {declaration.lines.map((line) => (
            <tr key={line.itemId || line.position} className="border-b border-slate-200 align-top">
              <td className="py-2 pr-2 tabular-nums">{line.position}</td>
              <td className="py-2 pr-2" data-testid="declaration-description">
                {line.description ?? <em className="text-amber-800">{t('declaration.noDescription')}</em>}
              </td>
              <td className="py-2 pr-2 text-right tabular-nums">{line.quantity}</td>
              <td className="py-2 pr-2 text-right tabular-nums">
                {line.weight ?? t('declaration.notWeighed')}
              </td>
              <td className="py-2 pr-2 text-right tabular-nums">{line.value}</td>
              {showHs ? <td className="py-2 pr-2 tabular-nums">{line.hsCode || '—'}</td> : null}
              <td className="py-2">{line.origin === 'JP' ? t('declaration.originJapan') : line.origin}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="font-semibold">
            <th scope="row" colSpan={2} className="py-2 pr-2">
              {t('declaration.total')}
            </th>
            <td className="py-2 pr-2 text-right tabular-nums">{declaration.totals.quantity}</td>
            <td className="py-2 pr-2 text-right tabular-nums">
              {declaration.totals.weight ?? t('declaration.notWeighed')}
            </td>
            <td className="py-2 pr-2 text-right tabular-nums" data-testid="declaration-total">
              {declaration.totals.value}
            </td>
            <td colSpan={showHs ? 2 : 1} />
          </tr>
        </tfoot>
      </table>
    </div>
  )
}

function Saved({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-green-900">
      {children}
    </p>
  )
}

/** The customer's section: the lines, the descriptions to write, and the confirmation. */
export function CustomerDeclaration({
  declaration,
  answer,
}: {
  declaration: DeclarationForPage
  answer: DeclarationAnswer
}) {
  const { t } = useTranslation()
  const errors = answer?.fieldErrors ?? {}
  const lockedError = fieldError(t, errors['']?.[0])
  return (
    <section
      aria-labelledby="declaration-heading"
      className="space-y-3 rounded-lg border border-slate-200 p-4"
      data-testid="customs-declaration"
    >
      <h2 id="declaration-heading" className="text-xl font-semibold text-slate-900">
        {t('declaration.heading')}
      </h2>
      <p className="text-slate-700">
        {declaration.locked ? t('declaration.leadLocked') : t('declaration.lead', { form: declaration.form })}
      </p>
      <p className="text-sm text-slate-700">{t('declaration.valuesNote')}</p>
      {answer?.saved ? (
        <Saved>{answer.saved === 'confirmed' ? t('declaration.confirmed') : t('declaration.saved')}</Saved>
      ) : null}
      {lockedError ? <p className="font-medium text-red-800">{lockedError}</p> : null}
      <DeclarationTable declaration={declaration} showHs={false} caption={t('declaration.heading')} />
      <p className="text-slate-800" data-testid="declaration-confirmation">
        {declaration.confirmedLabel
          ? t('declaration.confirmedOn', { date: declaration.confirmedLabel })
          : declaration.locked
            ? null
            : t('declaration.notConfirmed')}
      </p>
      {declaration.locked ? null : (
        // A new key after each answer: the fields show what the server now holds, or what was typed.
        <Form
          method="post"
          className="space-y-3"
          key={`${declaration.version}-${answer ? 'answer' : 'page'}`}
        >
          <input type="hidden" name="version" value={declaration.version} />
          {declaration.lines.map((line, index) => (
            <div key={line.itemId}>
              <input type="hidden" name="itemId" value={line.itemId} />
              <FormField
                id={`declaration-description-${line.position}`}
                label={t('declaration.descriptionLabel', { position: line.position })}
                hint={index === 0 ? t('declaration.descriptionHint') : null}
                error={fieldError(t, errors[`lines[${index}].description`]?.[0])}
              >
                {(control) => (
                  <input
                    {...control}
                    name="description"
                    maxLength={DESCRIPTION_MAX}
                    defaultValue={answer?.typed?.descriptions[index] ?? line.description ?? ''}
                    className={inputClass}
                    lang="en"
                  />
                )}
              </FormField>
            </div>
          ))}
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              name="intent"
              value="declaration_confirm"
              className={`${buttonClass} bg-red-700 text-white hover:bg-red-800`}
            >
              {t('declaration.confirm')}
            </button>
            <button
              type="submit"
              name="intent"
              value="declaration_save"
              className={`${buttonClass} border border-slate-400 text-slate-900 hover:bg-slate-50`}
            >
              {t('declaration.save')}
            </button>
          </div>
        </Form>
      )}
    </section>
  )
}

/** Staff's section: the lines, descriptions and HS codes to edit, and the printable form's link. */
export function StaffDeclaration({
  declaration,
  shipmentId,
  canEdit,
  answer,
}: {
  declaration: DeclarationForPage
  shipmentId: string
  canEdit: boolean
  answer: DeclarationAnswer
}) {
  const { t } = useTranslation()
  const errors = answer?.fieldErrors ?? {}
  const lockedError = fieldError(t, errors['']?.[0])
  return (
    <section
      aria-labelledby="declaration-heading"
      className="space-y-3 rounded-lg border border-slate-200 p-4"
      data-testid="customs-declaration"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="declaration-heading" className="text-xl font-semibold text-slate-900">
          {t('staffDeclaration.heading')} · {declaration.form}
        </h2>
        <Link
          to={`/admin-dashboard/shipments/${shipmentId}/declaration`}
          className="font-semibold text-red-800 underline"
        >
          {t('staffDeclaration.print')}
        </Link>
      </div>
      <p className="text-slate-700">{t('staffDeclaration.lead')}</p>
      <p className="text-slate-800" data-testid="declaration-confirmation">
        {declaration.confirmedLabel
          ? t('staffDeclaration.confirmedOn', { date: declaration.confirmedLabel })
          : t('staffDeclaration.notConfirmed')}
        {declaration.locked ? ` ${t('staffDeclaration.locked')}` : ''}
      </p>
      {declaration.totals.exportDeclaration ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
          {t('staffDeclaration.exportDeclaration')}
        </p>
      ) : null}
      {answer?.saved ? <Saved>{t('staffDeclaration.saved')}</Saved> : null}
      {lockedError ? <p className="font-medium text-red-800">{lockedError}</p> : null}
      <DeclarationTable declaration={declaration} caption={t('staffDeclaration.heading')} />
      {declaration.locked || !canEdit ? null : (
        <Form
          method="post"
          className="space-y-4"
          key={`${declaration.version}-${answer ? 'answer' : 'page'}`}
        >
          <input type="hidden" name="intent" value="declaration_staff" />
          <input type="hidden" name="version" value={declaration.version} />
          {declaration.lines.map((line, index) => (
            <fieldset key={line.itemId} className="grid gap-3 md:grid-cols-[2fr_1fr]">
              <legend className="sr-only">{line.position}</legend>
              <input type="hidden" name="itemId" value={line.itemId} />
              <FormField
                id={`declaration-description-${line.position}`}
                label={t('staffDeclaration.descriptionLabel', { position: line.position })}
                error={fieldError(t, errors[`lines[${index}].description`]?.[0])}
              >
                {(control) => (
                  <input
                    {...control}
                    name="description"
                    maxLength={DESCRIPTION_MAX}
                    defaultValue={answer?.typed?.descriptions[index] ?? line.description ?? ''}
                    className={inputClass}
                    lang="en"
                  />
                )}
              </FormField>
              <FormField
                id={`declaration-hs-${line.position}`}
                label={t('staffDeclaration.hsLabel', { position: line.position })}
                hint={index === 0 ? t('staffDeclaration.hsHint') : null}
                error={fieldError(t, errors[`lines[${index}].hsCode`]?.[0])}
              >
                {(control) => (
                  <input
                    {...control}
                    name="hsCode"
                    inputMode="decimal"
                    maxLength={20}
                    defaultValue={answer?.typed?.hsCodes[index] ?? line.hsCode}
                    className={inputClass}
                  />
                )}
              </FormField>
            </fieldset>
          ))}
          <button type="submit" className={`${buttonClass} bg-red-700 text-white hover:bg-red-800`}>
            {t('staffDeclaration.save')}
          </button>
        </Form>
      )}
    </section>
  )
}
