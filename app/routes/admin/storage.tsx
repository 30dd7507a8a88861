import { useTranslation } from 'react-i18next'
import { Form, Link, useActionData, useLoaderData } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { japanDateTime, japanDay } from '#app/lib/dates.ts'
import { actionFailure } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext } from '#app/middleware/auth.server.ts'
import { can } from '#core/shared/staff-policy.ts'
import { DISPOSAL_REASON_MAX } from '#core/warehouse/disposal-schemas.ts'
import { disposeItem, listOverdueItems } from '#core/warehouse/overdue-storage.ts'
import type { Route } from './+types/storage.ts'

// Items left at the office after their free storage (docs/decisions/031), the longest over
// first: who they belong to, where they sit, how long past their last free day, and when they
// may be disposed of. Staff who handle the warehouse see it; admins dispose of an item past its
// last day, with the reason (audited; the customer is told).

export async function loader({ context }: Route.LoaderArgs) {
  const orders = getOrderContext(context)
  const { items, disposalAfterDays } = await listOverdueItems(orders)
  const { language } = context.get(requestContext)
  const when = japanDateTime(language)
  const day = japanDay(language)
  return {
    canDispose: can(orders.actor, 'dispose_items'),
    disposalAfterDays,
    // The last free day written like the other dates (it showed as 2026-11-03 among them).
    items: items.map((item) => ({
      ...item,
      receivedLabel: when(item.receivedAt),
      freeUntilLabel: day(item.freeUntil),
    })),
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData().catch(() => new FormData())
  const itemId = String(form.get('itemId') ?? '')
  try {
    await disposeItem(getOrderContext(context), { itemId, reason: form.get('reason') ?? undefined })
  } catch (error) {
    return actionFailure(error, { itemId })
  }
  return redirectWithNotice(context, '/admin-dashboard/storage', 'itemDisposed')
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

export default function StorageRoute() {
  const { t } = useTranslation()
  const { items, canDispose, disposalAfterDays } = useLoaderData<typeof loader>()
  const answer = useActionData<typeof action>()
  return (
    <section aria-labelledby="storage-heading" className="space-y-6">
      <PageMeta title={t('overdue.title')} description={t('overdue.lead', { days: disposalAfterDays })} />
      <h1 id="storage-heading" className="text-3xl font-bold text-slate-900">
        {t('overdue.title')}
      </h1>
      <p className="text-slate-700">{t('overdue.lead', { days: disposalAfterDays })}</p>
      {answer && !answer.fieldErrors.reason ? (
        <FormAlert tone="warning" look="box">
          {errorText(t, answer.messageKey)}
        </FormAlert>
      ) : null}
      {items.length === 0 ? (
        <p className="rounded-md bg-slate-50 p-4 text-slate-800">{t('overdue.empty')}</p>
      ) : (
        <ul className="space-y-3">
          {items.map((item) => {
            const reasonError = answer?.itemId === item.id ? answer.fieldErrors.reason?.[0] : undefined
            return (
              <li
                key={item.id}
                className="space-y-2 rounded-lg border border-slate-300 p-4"
                data-testid="overdue-item"
              >
                <p className="font-semibold text-slate-900">
                  <Link to={`/admin-dashboard/requests/${item.requestId}`} className="underline">
                    {t('overdue.item', {
                      request: item.requestNumber,
                      position: item.position,
                      title: item.title ?? item.shopHost,
                    })}
                  </Link>
                </p>
                <p className="break-all text-slate-800">
                  {item.customerName} · {item.customerEmail}
                </p>
                <p className="text-slate-800">
                  {t('overdue.place', { package: item.packageNumber ?? '—', shelf: item.shelf ?? '—' })} ·{' '}
                  {t('overdue.arrived', { date: item.receivedLabel })}
                </p>
                <p className="font-medium text-amber-950">
                  {t('overdue.over', { count: item.daysOver, date: item.freeUntilLabel })}{' '}
                  {item.daysToDisposal > 0
                    ? t('overdue.disposableIn', { count: item.daysToDisposal })
                    : t('overdue.disposableNow')}
                </p>
                {canDispose && item.daysToDisposal === 0 ? (
                  <details className="rounded-md border border-slate-200 p-3">
                    <summary className="cursor-pointer font-semibold text-red-800">
                      {t('overdue.dispose')}
                    </summary>
                    <Form method="post" className="mt-3 space-y-3">
                      <input type="hidden" name="itemId" value={item.id} />
                      <FormField
                        id={`reason-${item.id}`}
                        label={t('overdue.reason')}
                        hint={t('overdue.reasonHint')}
                        error={errorTextIn(t, 'overdue.errors', reasonError)}
                      >
                        {(control) => (
                          <textarea
                            {...control}
                            name="reason"
                            rows={2}
                            maxLength={DISPOSAL_REASON_MAX}
                            className={`${inputClass} py-2`}
                          />
                        )}
                      </FormField>
                      <button
                        type="submit"
                        className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
                      >
                        {t('overdue.disposeConfirm', {
                          request: item.requestNumber,
                          position: item.position,
                        })}
                      </button>
                    </Form>
                  </details>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
