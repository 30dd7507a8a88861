import { useTranslation } from 'react-i18next'
import { data, Form, Link, useActionData, useLoaderData } from 'react-router'
import { CustomerPictureSections, PictureTotals } from '#app/components/admin/customer-picture.tsx'
import { StaffBalance } from '#app/components/balance/staff-balance.tsx'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, inputClass } from '#app/components/form-field.tsx'
import { PageMeta } from '#app/components/page-meta.tsx'
import { requestContext } from '#app/context.ts'
import { statementView } from '#app/lib/balance-views.server.ts'
import { japanDateTime, japanDay } from '#app/lib/dates.ts'
import { refusalOf } from '#app/lib/http-errors.ts'
import { redirectWithNotice } from '#app/lib/notice.server.ts'
import { getOrderContext, getServiceContext } from '#app/middleware/auth.server.ts'
import { BALANCE_LIMITS } from '#core/balance/balance-schemas.ts'
import { adjustBalance, getStatement, recordTopUp } from '#core/balance/balance-service.ts'
import { formatMoney } from '#core/money/money.ts'
import { isRequestStatus } from '#core/orders/request-machine.ts'
import { isPaymentStatus, type PaymentStatus } from '#core/payments/payment-machine.ts'
import { canRecordPayment } from '#core/payments/payment-policy.ts'
import type { Language } from '#core/preferences/preferences.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import { can } from '#core/shared/staff-policy.ts'
import { isShipmentStatus } from '#core/shipping/shipment-machine.ts'
import {
  type CustomerPicture,
  getCustomerPicture,
  type PictureMoneyEntry,
} from '#core/users/customer-picture.ts'
import { disableUser, enableUser, getUserDetail, signOutEverywhere } from '#core/users/user-admin.ts'
import { storageCountdown } from '#core/warehouse/storage.ts'
import type { Route } from './+types/user.ts'

// One user for staff (docs/decisions/024-admin-users.md): the profile, their whole picture
// (issue 34: lifetime totals, requests, shipments, items at the office, addresses, payments and
// refunds, each linking to its staff page), what staff did to the account; admins sign the user
// out everywhere, disable or re-enable the account (each audited). Moderators read. Role changes
// are on the list (./users.tsx).

export async function loader({ params, context }: Route.LoaderArgs) {
  const ctx = getOrderContext(context)
  const { language } = context.get(requestContext)
  const { freeStorageDays } = await ctx.settings.get()
  const [user, picture] = await Promise.all([
    getUserDetail(ctx, params.id),
    getCustomerPicture(ctx, params.id),
  ])
  const statement = await getStatement(ctx, params.id)
  const format = japanDateTime(language)
  return {
    balance: {
      statement: statementView(statement, language, 'staff'),
      canMove: canRecordPayment(ctx.actor),
      limits: {
        min: formatMoney(BALANCE_LIMITS.topUpMinJpy, 'JPY', language),
        max: formatMoney(BALANCE_LIMITS.topUpMaxJpy, 'JPY', language),
      },
    },
    user: { ...user, createdLabel: format(user.createdAt) },
    picture: pictureView(picture, language, { now: new Date(), freeDays: freeStorageDays }),
    history: user.history.map((entry) => ({ ...entry, whenLabel: format(entry.createdAt) })),
    canManage: can(ctx.actor, 'manage_users') && ctx.actor?.id !== user.id,
  }
}

const methodOf = (value: string): ShippingMethod =>
  SHIPPING_METHODS.find((method) => method === value) ?? 'economic'

type MoneyRow = Omit<PictureMoneyEntry, 'at' | 'amountJpy' | 'kind' | 'status'> & {
  amount: string
  dateLabel: string
} & ({ kind: 'refund'; status: 'due' | 'done' } | { kind: 'payment'; status: PaymentStatus })

/** A payment or refund as the page shows it; a status this page does not know is left out. */
function moneyRow(
  { at, amountJpy, kind, status, ...row }: PictureMoneyEntry,
  when: (date: Date) => string,
  yen: (amount: number) => string,
): MoneyRow[] {
  const common = { ...row, amount: yen(amountJpy), dateLabel: when(at) }
  if (kind === 'refund' && (status === 'due' || status === 'done')) return [{ ...common, kind, status }]
  if (kind === 'payment' && isPaymentStatus(status)) return [{ ...common, kind, status }]
  return []
}

/** The picture as the page shows it: dates in Japan time, yen written out, statuses narrowed. */
function pictureView(
  picture: CustomerPicture,
  language: Language,
  { now, freeDays }: { now: Date; freeDays: number },
) {
  const when = japanDateTime(language)
  const day = japanDay(language)
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  const { requests, shipments, storedItems, addresses, money, conversations, totals } = picture
  return {
    totals: {
      ...totals,
      paid: yen(totals.paidJpy),
      refunded: yen(totals.refundedJpy),
      balance: yen(totals.balanceJpy),
    },
    requests: {
      total: requests.total,
      rows: requests.rows.flatMap((row) =>
        isRequestStatus(row.status) ? [{ ...row, status: row.status, dateLabel: when(row.submittedAt) }] : [],
      ),
    },
    shipments: {
      total: shipments.total,
      rows: shipments.rows.flatMap((row) =>
        isShipmentStatus(row.status)
          ? [{ ...row, status: row.status, method: methodOf(row.method), dateLabel: when(row.requestedAt) }]
          : [],
      ),
    },
    storedItems: {
      total: storedItems.total,
      rows: storedItems.rows.map(({ receivedAt, reservedAt, pausedDays, ...row }) => {
        const storage = storageCountdown(receivedAt, now, freeDays, { reservedAt, pausedDays })
        return {
          ...row,
          arrivedLabel: when(receivedAt),
          freeUntilLabel: day(storage.freeUntil),
          expired: storage.expired,
        }
      }),
    },
    addresses,
    money: {
      total: money.total,
      rows: money.rows.flatMap((entry) => moneyRow(entry, when, yen)),
    },
    conversations: {
      total: conversations.total,
      rows: conversations.rows.map(({ lastMessageAt, waitingSince, ...row }) => ({
        ...row,
        lastLabel: when(lastMessageAt),
        waitingLabel: waitingSince ? when(waitingSince) : null,
      })),
    },
  }
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' })

const INTENTS = ['sign_out', 'disable', 'enable', 'balance_topup', 'balance_adjust'] as const
type Intent = (typeof INTENTS)[number]

export async function action({ request, params, context }: Route.ActionArgs) {
  const formData = await request.formData().catch(() => new FormData())
  const intentValue = String(formData.get('intent') ?? '')
  const intent: Intent | null = INTENTS.includes(intentValue as Intent) ? (intentValue as Intent) : null
  const ctx = getServiceContext(context)
  const back = (
    notice: 'userSignedOut' | 'userDisabled' | 'userEnabled' | 'balanceTopUpRecorded' | 'balanceAdjusted',
  ) => redirectWithNotice(context, `/admin-dashboard/users/${params.id}`, notice)
  try {
    if (intent === 'sign_out') {
      await signOutEverywhere(ctx, { userId: params.id })
      return back('userSignedOut')
    }
    if (intent === 'disable') {
      await disableUser(ctx, { userId: params.id, reason: formData.get('reason') ?? '' })
      return back('userDisabled')
    }
    if (intent === 'enable') {
      await enableUser(ctx, { userId: params.id })
      return back('userEnabled')
    }
    // The customer balance (docs/decisions/050): admins only (the service checks).
    if (intent === 'balance_topup') {
      await recordTopUp(getOrderContext(context), {
        userId: params.id,
        amountJpy: formData.get('amountJpy') ?? '',
        reference: formData.get('reference') ?? '',
      })
      return back('balanceTopUpRecorded')
    }
    if (intent === 'balance_adjust') {
      await adjustBalance(ctx, {
        userId: params.id,
        direction: formData.get('direction') ?? '',
        amountJpy: formData.get('amountJpy') ?? '',
        reason: formData.get('reason') ?? '',
      })
      return back('balanceAdjusted')
    }
    return data(
      { intent: null, messageKey: 'errors.codes.invalid', fieldError: null, fieldErrors: {} },
      { status: 400 },
    )
  } catch (caught) {
    const refusal = refusalOf(caught)
    const field = refusal.fieldErrors.reason?.[0] ?? null
    return data(
      { intent, messageKey: refusal.messageKey, fieldError: field, fieldErrors: refusal.fieldErrors },
      refusal.init,
    )
  }
}

export default function UserRoute() {
  const { t } = useTranslation()
  const { user, picture, history, canManage, balance } = useLoaderData<typeof loader>()
  const failed = useActionData<typeof action>()
  const unknown = (value: string) => value.trim() || t('adminUsers.unknown')
  const title = t('adminUsers.userTitle', { email: unknown(user.email) })
  return (
    <article aria-labelledby="user-heading" className="space-y-8">
      <PageMeta title={title} description={title} />
      <p>
        <Link to="/admin-dashboard/users" className="font-semibold text-red-800 underline">
          {t('adminUsers.back')}
        </Link>
      </p>
      <h1 id="user-heading" className="text-3xl font-bold break-all text-slate-900">
        {title}
      </h1>
      {failed ? <FormAlert look="box">{errorText(t, failed.messageKey)}</FormAlert> : null}

      <PictureTotals totals={picture.totals} />

      <UserProfile user={user} />

      {canManage ? <UserActions disabled={user.disabled} failed={failed} /> : null}

      <CustomerPictureSections picture={picture} />

      <StaffBalance
        statement={balance.statement}
        canMove={balance.canMove}
        limits={balance.limits}
        answer={
          failed?.intent === 'balance_topup' || failed?.intent === 'balance_adjust'
            ? { intent: failed.intent, fieldErrors: failed.fieldErrors }
            : null
        }
      />

      <UserHistory history={history} />
    </article>
  )
}

type Loaded = Awaited<ReturnType<typeof loader>>

/** The account's facts: name, e-mail, role, dates, checks, language, phone, sessions, state. */
function UserProfile({ user }: { user: Loaded['user'] }) {
  const { t } = useTranslation()
  const unknown = (value: string) => value.trim() || t('adminUsers.unknown')
  const yesNo = (value: boolean) => (value ? t('adminUsers.yes') : t('adminUsers.no'))
  const facts: [string, string][] = [
    [t('adminUsers.columns.name'), unknown(user.name)],
    [t('adminUsers.columns.email'), unknown(user.email)],
    [t('adminUsers.columns.role'), t(`session.roles.${user.role}`)],
    [t('adminUsers.columns.createdAt'), user.createdLabel],
    [t('adminUsers.columns.verified'), yesNo(user.emailVerified)],
    [t('adminUsers.columns.twoStep'), yesNo(user.twoStep)],
    [t('adminUsers.language'), user.language === 'en' ? 'English' : 'Español'],
    [t('adminUsers.phone'), user.phone || t('adminUsers.none')],
    [t('adminUsers.sessions'), String(user.sessions)],
    [
      t('adminUsers.state'),
      user.disabled
        ? t('adminUsers.disabledBecause', { reason: user.disabledReason ?? '' })
        : t('adminUsers.active'),
    ],
  ]
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-xl font-semibold text-slate-900">
        {t('adminUsers.profile')}
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-700">{label}</dt>
            <dd className="break-all text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}

/** An admin's buttons: sign the user out everywhere, disable the account (with a reason) or re-enable it. */
function UserActions({
  disabled,
  failed,
}: {
  disabled: boolean
  failed: Route.ComponentProps['actionData']
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="actions-heading" className="space-y-4">
      <h2 id="actions-heading" className="text-xl font-semibold text-slate-900">
        {t('adminUsers.actions')}
      </h2>
      <Form method="post" className="space-y-2">
        <input type="hidden" name="intent" value="sign_out" />
        <p className="text-slate-700">{t('adminUsers.signOutHint')}</p>
        <button
          type="submit"
          className="min-h-11 rounded-md border border-slate-700 px-4 font-semibold text-slate-900 hover:bg-slate-100"
        >
          {t('adminUsers.signOut')}
        </button>
      </Form>
      {disabled ? (
        <Form method="post" className="space-y-2">
          <input type="hidden" name="intent" value="enable" />
          <p className="text-slate-700">{t('adminUsers.enableHint')}</p>
          <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
            {t('adminUsers.enable')}
          </button>
        </Form>
      ) : (
        <Form method="post" className="space-y-2 rounded-lg border border-slate-300 p-4">
          <input type="hidden" name="intent" value="disable" />
          <p className="text-slate-700">{t('adminUsers.disableHint')}</p>
          <FormField
            id="disable-reason"
            label={t('adminUsers.disableReason')}
            error={
              failed?.intent === 'disable' ? errorTextIn(t, 'adminUsers.errors', failed.fieldError) : null
            }
          >
            {(control) => (
              <input
                {...control}
                id="disable-reason"
                name="reason"
                type="text"
                required
                maxLength={500}
                autoComplete="off"
                className={inputClass}
              />
            )}
          </FormField>
          <button type="submit" className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white">
            {t('adminUsers.disable')}
          </button>
        </Form>
      )}
    </section>
  )
}

/** What staff did to the account (role changes, disabling…) and who did it. */
function UserHistory({ history }: { history: Loaded['history'] }) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="user-history-heading">
      <h2 id="user-history-heading" className="text-xl font-semibold text-slate-900">
        {t('adminUsers.history')}
      </h2>
      {history.length === 0 ? (
        <p className="mt-2 text-slate-700">{t('adminUsers.noHistory')}</p>
      ) : (
        <ol className="mt-3 space-y-2">
          {history.map((entry) => (
            <li key={entry.id} className="text-slate-900">
              <span className="text-sm text-slate-700">{entry.whenLabel}</span> ·{' '}
              {t(`audit.kinds.${entry.kind.replace('.', '_') as 'role_assign'}`)}
              {entry.kind === 'role.assign'
                ? `: ${t(`session.roles.${String(entry.before.role ?? 'user') as 'user'}`)} → ${t(
                    `session.roles.${String(entry.after.role ?? 'user') as 'user'}`,
                  )}`
                : entry.kind === 'user.disable'
                  ? `: ${String(entry.after.reason ?? '')}`
                  : ''}{' '}
              <span className="text-sm text-slate-700">
                ({t('adminUsers.by', { email: entry.actorEmail ?? t('audit.system') })})
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
