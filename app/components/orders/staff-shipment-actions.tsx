import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorTextIn } from '#app/components/error-text.ts'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { CARRIER_NAMES, CARRIERS } from '#core/shipping/tracking.ts'

/**
 * The staff shipment page's forms after payment (docs/decisions/030): hand it to the carrier with
 * the tracking number, mark it delivered, and work a lost-parcel claim (the carrier's reference
 * and notes; then lost, for admins, or closed with a reason). Plain forms: they work without
 * JavaScript; a refusal comes back with its field (`answer`).
 */

export type StaffShipmentAnswer = {
  intent: string
  messageKey: string
  fieldErrors: Record<string, string[]>
} | null

function useFieldError(answer: StaffShipmentAnswer, intent: string) {
  const { t } = useTranslation()
  return (field: string) => {
    const key = answer?.intent === intent ? answer.fieldErrors[field]?.[0] : undefined
    return errorTextIn(t, 'staffShipments.claimErrors', key)
  }
}

const primary = 'min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800'

export function ShipForm({ version, answer }: { version: number; answer: StaffShipmentAnswer }) {
  const { t } = useTranslation()
  const error = useFieldError(answer, 'ship')
  return (
    <section aria-labelledby="ship-heading" className="space-y-3 rounded-lg border border-slate-300 p-4">
      <h2 id="ship-heading" className="text-xl font-semibold text-slate-900">
        {t('staffShipments.shipHeading')}
      </h2>
      <p className="text-slate-700">{t('staffShipments.shipLead')}</p>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="ship" />
        <input type="hidden" name="version" value={version} />
        <FormField id="ship-carrier" label={t('staffShipments.carrier')} error={error('carrier')}>
          {(control) => (
            <select
              {...control}
              name="carrier"
              defaultValue="japan_post"
              className={`${inputClass} max-w-64`}
            >
              {CARRIERS.map((carrier) => (
                <option key={carrier} value={carrier}>
                  {CARRIER_NAMES[carrier]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField
          id="ship-tracking"
          label={t('staffShipments.trackingNumber')}
          hint={t('staffShipments.trackingHint')}
          error={error('trackingNumber')}
        >
          {(control) => (
            <input
              {...control}
              name="trackingNumber"
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={60}
              className={`${inputClass} max-w-80 font-mono`}
            />
          )}
        </FormField>
        <button type="submit" className={primary}>
          {t('staffShipments.ship')}
        </button>
      </Form>
    </section>
  )
}

export function DeliverForm({ version }: { version: number }) {
  const { t } = useTranslation()
  return (
    <Form method="post" className="space-y-2 rounded-lg border border-slate-200 p-4">
      <input type="hidden" name="intent" value="deliver" />
      <input type="hidden" name="version" value={version} />
      <p id="deliver-hint" className="text-slate-700">
        {t('staffShipments.deliverHint')}
      </p>
      <button type="submit" aria-describedby="deliver-hint" className={primary}>
        {t('staffShipments.deliver')}
      </button>
    </Form>
  )
}

export type StaffClaimData = {
  id: string
  status: 'open' | 'investigating' | 'lost' | 'closed'
  version: number
  customerNote: string | null
  carrierReference: string | null
  closeReason: string | null
  refund: string | null
  openedLabel: string
}

export function StaffClaimPanel({
  claim,
  canConfirmLoss,
  answer,
}: {
  claim: StaffClaimData
  canConfirmLoss: boolean
  answer: StaffShipmentAnswer
}) {
  const { t } = useTranslation()
  const working = claim.status === 'open' || claim.status === 'investigating'
  return (
    <section
      aria-labelledby="claim-heading"
      className="space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-4"
    >
      <h2 id="claim-heading" className="text-xl font-semibold text-slate-900">
        {t('staffShipments.claimHeading')}
      </h2>
      <p className="font-semibold text-slate-900" data-testid="staff-claim-status">
        {t(`staffShipments.claimStatus.${claim.status}`, {
          refund: claim.refund ?? '',
          reason: claim.closeReason ?? '',
        })}
      </p>
      <p className="text-slate-800">{t('staffShipments.claimOpened', { date: claim.openedLabel })}</p>
      {claim.customerNote ? (
        <p className="text-slate-800">
          {t('staffShipments.claimNoteFromCustomer', { note: claim.customerNote })}
        </p>
      ) : null}
      {claim.carrierReference ? (
        <p className="text-slate-800">
          {t('staffShipments.claimReference', { reference: claim.carrierReference })}
        </p>
      ) : null}
      {working ? (
        <>
          <InvestigateClaimForm claim={claim} answer={answer} />
          <ResolveClaimForm claim={claim} canConfirmLoss={canConfirmLoss} answer={answer} />
        </>
      ) : null}
    </section>
  )
}

/** The claim's work with the carrier: their reference and notes (`intent=investigate`). */
function InvestigateClaimForm({ claim, answer }: { claim: StaffClaimData; answer: StaffShipmentAnswer }) {
  const { t } = useTranslation()
  const investigateError = useFieldError(answer, 'investigate')
  return (
    <Form method="post" className="space-y-3 rounded-md bg-white p-3">
      <h3 className="font-semibold text-slate-900">{t('staffShipments.investigateHeading')}</h3>
      <input type="hidden" name="intent" value="investigate" />
      <input type="hidden" name="claimId" value={claim.id} />
      <input type="hidden" name="version" value={claim.version} />
      <FormField
        id="claim-reference"
        label={t('staffShipments.carrierReference')}
        error={investigateError('carrierReference')}
      >
        {(control) => (
          <input
            {...control}
            name="carrierReference"
            type="text"
            maxLength={100}
            defaultValue={claim.carrierReference ?? ''}
            className={`${inputClass} max-w-80`}
          />
        )}
      </FormField>
      <FormField id="claim-note" label={t('staffShipments.claimNote')} error={investigateError('note')}>
        {(control) => (
          <textarea {...control} name="note" rows={2} maxLength={2000} className={`${inputClass} py-2`} />
        )}
      </FormField>
      <button type="submit" className={primary}>
        {t('staffShipments.investigate')}
      </button>
    </Form>
  )
}

/** The claim's end: lost (admins only) or closed, with the reason (`intent=resolve`). */
function ResolveClaimForm({
  claim,
  canConfirmLoss,
  answer,
}: {
  claim: StaffClaimData
  canConfirmLoss: boolean
  answer: StaffShipmentAnswer
}) {
  const { t } = useTranslation()
  const resolveError = useFieldError(answer, 'resolve')
  return (
    <Form method="post" className="space-y-3 rounded-md bg-white p-3">
      <h3 className="font-semibold text-slate-900">{t('staffShipments.resolveHeading')}</h3>
      <input type="hidden" name="intent" value="resolve" />
      <input type="hidden" name="claimId" value={claim.id} />
      <input type="hidden" name="version" value={claim.version} />
      <fieldset className="space-y-2">
        <legend className="font-medium text-slate-800">{t('staffShipments.resolution')}</legend>
        {canConfirmLoss ? (
          <label className="flex min-h-11 items-center gap-2">
            <input type="radio" name="resolution" value="lost" className="h-5 w-5" />
            {t('staffShipments.resolutionLost')}
          </label>
        ) : null}
        <label className="flex min-h-11 items-center gap-2">
          <input type="radio" name="resolution" value="closed" defaultChecked className="h-5 w-5" />
          {t('staffShipments.resolutionClosed')}
        </label>
      </fieldset>
      <FormField
        id="claim-reason"
        label={t('staffShipments.resolutionReason')}
        error={resolveError('reason')}
      >
        {(control) => (
          <textarea {...control} name="reason" rows={2} maxLength={2000} className={`${inputClass} py-2`} />
        )}
      </FormField>
      <button type="submit" className={primary}>
        {t('staffShipments.resolve')}
      </button>
    </Form>
  )
}
