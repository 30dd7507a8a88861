import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Form } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { FormField, fileInputClass, inputClass } from '#app/components/form-field.tsx'
import type { LocalMethodId } from '#core/payments/local-methods.ts'
import { TRANSFER_LIMITS, TRANSFER_PROOF_ACCEPT } from '#core/payments/payment-schemas.ts'
import type { PaymentMethod } from '#core/payments/payment-views.ts'
import type { ProviderName } from '#core/payments/provider.ts'
import { inLanguage } from '#core/settings/bilingual.ts'
import type { Settings } from '#core/settings/settings-schema.ts'

/**
 * The customer's payment panel on a request page (docs/decisions/021, "Payments"). Inside the
 * open quote (`in-quote`, under its total and due date): how to pay. With providers configured,
 * one button per provider posts `intent=pay` to the page's action, which answers with the
 * provider's page: a link to follow (without JavaScript) that the browser follows by itself
 * (with it). A form cannot
 * redirect to another site (the CSP's form-action is 'self'). With no provider, or as an
 * alternative, the bank-transfer details from the settings with the quote number as reference.
 * A payment under review, or one being confirmed (the customer came back from the provider's
 * page and it is not settled yet): no new payment is asked for. Once paid (`standalone`, the quote panel
 * is gone): the quote's number and total, when and how it was paid, and the receipt.
 * Under the bank details, "I have paid" (docs/decisions/036): the customer tells us of their
 * transfer, with a photo or PDF of the bank's receipt if they like; the panel then says it is
 * being checked (nothing is paid until staff record it), or, if staff did not find it, why.
 */

export type PaymentPanelData = {
  invoice: { id: string; number: string; status: string; version: number } | null
  totalLabel: string
  paidLabel: string | null
  providers: ProviderName[]
  bankTransfer: Settings['bankTransfer']
  underReview: boolean
  beingConfirmed: boolean
  paidWith: PaymentMethod | null
  canPay: boolean
  /** "I have paid" may be said now (an open invoice, nothing pending or under review). */
  canReportTransfer: boolean
  /** The customer said they paid by transfer: when, and their proof's address (if they sent one). */
  transferReported: { atLabel: string; proofHref: string | null } | null
  /** The last transfer they reported was not found: when staff said so, and why. */
  transferDismissed: { atLabel: string; reason: string } | null
  /**
   * The customer balance (docs/decisions/050): what they have (null: nothing to use), and what of
   * this invoice it already paid (null: nothing).
   */
  balance: { availableLabel: string | null; appliedLabel: string | null }
  /**
   * Local methods through dLocal (docs/decisions/051), when it is configured: the country they
   * follow (the default address's, or the one chosen here), the countries to choose from, and
   * the methods offered there. null: not configured.
   */
  local: {
    country: string | null
    /** The customer chose the country here (the page then shows the methods at once). */
    asked: boolean
    countries: { code: string; name: string }[]
    methods: LocalMethodId[]
  } | null
  /** A voucher to pay (OXXO reference, SPEI CLABE, PIX code), until paid or expired. */
  voucher: {
    method: string
    reference: string
    barcode: string | null
    url: string | null
    payByLabel: string | null
    amountLabel: string | null
  } | null
}

export function PaymentPanel({
  variant,
  panel,
  checkout,
  formError,
  receiptHref,
  ownerKind = 'request',
  reportResult,
}: {
  /** `in-quote`: inside the open quote's panel; `standalone`: once paid, or a shipping receipt. */
  variant: 'in-quote' | 'standalone'
  /** What the invoice is for: a request's quote, or a shipment's shipping receipt. */
  ownerKind?: 'request' | 'shipment'
  panel: PaymentPanelData
  /** The provider's page, once the customer chose a provider (the action's answer). */
  checkout: { payUrl: string; provider: ProviderName } | null
  formError: string | null
  receiptHref?: string | null
  /** The "I have paid" form's answer from the action (its errors), if it was just sent. */
  reportResult?: SubmissionResult<string[]> | null
}) {
  const { t } = useTranslation()
  const { invoice } = panel
  useEffect(() => {
    if (checkout) window.location.assign(checkout.payUrl)
  }, [checkout])
  if (!invoice) return null
  const error = <FormAlert>{formError}</FormAlert>
  const body = (
    <PanelBody
      panel={panel}
      checkout={checkout}
      receiptHref={receiptHref ?? null}
      reportResult={reportResult ?? null}
    />
  )
  if (variant === 'in-quote') {
    return (
      <section aria-labelledby="payment-heading" className="space-y-3 border-t border-slate-200 pt-4">
        <h3 id="payment-heading" className="text-lg font-semibold text-slate-900">
          {t('payment.heading')}
        </h3>
        {error}
        {body}
      </section>
    )
  }
  return (
    <section
      aria-labelledby="payment-heading"
      className="space-y-4 rounded-lg border border-slate-300 p-4 sm:p-6"
    >
      <h2 id="payment-heading" className="text-xl font-semibold text-slate-900">
        {t('payment.heading')}
      </h2>
      <p className="text-slate-700">
        {t(ownerKind === 'shipment' ? 'payment.shippingReceipt' : 'payment.quote', {
          number: invoice.number,
        })}
      </p>
      <dl className="flex flex-wrap items-baseline gap-x-3">
        <dt className="font-semibold text-slate-900">
          {t(invoice.status === 'paid' ? 'payment.totalPaid' : 'payment.total')}
        </dt>
        <dd className="text-2xl font-bold text-slate-900" data-testid="payment-total">
          {panel.totalLabel}
        </dd>
      </dl>
      {error}
      {body}
    </section>
  )
}

function PanelBody({
  panel,
  checkout,
  receiptHref,
  reportResult,
}: {
  panel: PaymentPanelData
  checkout: { payUrl: string; provider: ProviderName } | null
  receiptHref: string | null
  reportResult: SubmissionResult<string[]> | null
}) {
  const { t } = useTranslation()
  const invoice = panel.invoice
  if (!invoice) return null
  if (invoice.status === 'paid') return <PaidNote panel={panel} receiptHref={receiptHref} />
  if (panel.underReview) {
    return (
      <p role="status" className="rounded-md bg-amber-50 p-3 font-medium text-amber-900">
        {t('payment.underReview')}
      </p>
    )
  }
  if (panel.beingConfirmed) {
    return (
      <p role="status" className="rounded-md bg-sky-50 p-3 font-medium text-sky-950">
        {t('payment.beingConfirmed')}
      </p>
    )
  }
  if (panel.voucher) return <VoucherNote voucher={panel.voucher} totalLabel={panel.totalLabel} />
  if (panel.transferReported) return <TransferReportedNote reported={panel.transferReported} />
  if (!panel.canPay) return <p className="text-slate-700">{t('payment.notPayable')}</p>
  if (checkout) return <CheckoutLink checkout={checkout} totalLabel={panel.totalLabel} />
  const balance = (
    <>
      {panel.balance.appliedLabel ? (
        <p className="rounded-md bg-emerald-50 p-3 text-emerald-900" data-testid="balance-applied">
          {t('balance.pay.applied', { amount: panel.balance.appliedLabel })}
        </p>
      ) : null}
      {panel.balance.availableLabel ? (
        <BalanceForm invoiceId={invoice.id} availableLabel={panel.balance.availableLabel} />
      ) : null}
    </>
  )
  const bank = (
    <>
      <BankTransfer panel={panel} />
      {panel.canReportTransfer ? (
        <ReportTransferForm invoiceId={invoice.id} lastResult={reportResult} />
      ) : null}
    </>
  )
  return (
    <>
      {balance}
      {panel.transferDismissed ? (
        <FormAlert tone="warning" look="box" weight="normal" data-testid="transfer-dismissed">
          {t('payment.transfer.dismissed', {
            date: panel.transferDismissed.atLabel,
            reason: panel.transferDismissed.reason,
          })}
        </FormAlert>
      ) : null}
      {panel.providers.length > 0 || panel.local ? (
        <>
          {panel.providers.length > 0 ? (
            <ProviderChoice invoiceId={invoice.id} providers={panel.providers} />
          ) : null}
          {panel.local ? <LocalChoice invoiceId={invoice.id} local={panel.local} /> : null}
          <details className="rounded-md border border-slate-200 p-3">
            <summary className="cursor-pointer font-semibold text-slate-900">
              {t('payment.bankOther')}
            </summary>
            <div className="mt-3">{bank}</div>
          </details>
        </>
      ) : (
        <div className="space-y-2">
          <h3 className="font-semibold text-slate-900">{t('payment.bankHeading')}</h3>
          {bank}
        </div>
      )}
    </>
  )
}

/**
 * Pay from the balance (`intent=pay_balance`): all it covers (the amount left empty) or the amount
 * written; the rest is then paid with a provider or a bank transfer, for what is left.
 */
function BalanceForm({ invoiceId, availableLabel }: { invoiceId: string; availableLabel: string }) {
  const { t } = useTranslation()
  return (
    <Form
      method="post"
      className="space-y-2 rounded-md border border-slate-200 p-3"
      data-testid="balance-form"
    >
      <h4 className="font-semibold text-slate-900">{t('balance.pay.title')}</h4>
      <p className="text-slate-800">{t('balance.pay.available', { amount: availableLabel })}</p>
      <input type="hidden" name="intent" value="pay_balance" />
      <input type="hidden" name="invoiceId" value={invoiceId} />
      <label htmlFor="balance-amount" className="block font-medium text-slate-900">
        {t('balance.pay.amount')}
      </label>
      <input
        id="balance-amount"
        name="amountJpy"
        inputMode="numeric"
        autoComplete="off"
        aria-describedby="balance-amount-help"
        className={inputClass}
      />
      <p id="balance-amount-help" className="text-sm text-slate-700">
        {t('balance.pay.amountHelp')}
      </p>
      <button
        type="submit"
        className="min-h-11 rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
      >
        {t('balance.pay.button')}
      </button>
    </Form>
  )
}

/** The invoice is paid: when, how, and the receipt. */
function PaidNote({ panel, receiptHref }: { panel: PaymentPanelData; receiptHref: string | null }) {
  const { t } = useTranslation()
  return (
    <div role="status" className="space-y-2 rounded-md bg-emerald-50 p-3 text-emerald-900">
      <p className="font-semibold">{t('payment.paid', { date: panel.paidLabel ?? '' })}</p>
      {panel.paidWith ? <p>{t(`payment.paidWith.${panel.paidWith}`)}</p> : null}
      {receiptHref ? (
        <p>
          <a href={receiptHref} className="font-semibold underline">
            {t('payment.receipt')}
          </a>
        </p>
      ) : null}
    </div>
  )
}

/** The customer said they paid by transfer: it is being checked, and their proof. */
function TransferReportedNote({ reported }: { reported: NonNullable<PaymentPanelData['transferReported']> }) {
  const { t } = useTranslation()
  return (
    <div
      role="status"
      className="space-y-2 rounded-md bg-sky-50 p-3 text-sky-950"
      data-testid="transfer-reported"
    >
      <p className="font-semibold">{t('payment.transfer.checking', { date: reported.atLabel })}</p>
      <p>{t('payment.transfer.checkingHint')}</p>
      {reported.proofHref ? (
        <p>
          <a href={reported.proofHref} className="font-semibold underline">
            {t('payment.transfer.seeProof')}
          </a>
        </p>
      ) : null}
    </div>
  )
}

/** The provider's page to continue to, once the customer chose a provider. */
function CheckoutLink({
  checkout,
  totalLabel,
}: {
  checkout: { payUrl: string; provider: ProviderName }
  totalLabel: string
}) {
  const { t } = useTranslation()
  return (
    <div role="status" className="space-y-2 rounded-md bg-sky-50 p-4 text-sky-950">
      <p>
        <a
          href={checkout.payUrl}
          className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
        >
          {t(`payment.continueTo.${checkout.provider}`)}
        </a>
      </p>
      <p>{t('payment.continueHint', { amount: totalLabel })}</p>
    </div>
  )
}

/** One button per configured provider, each posting `intent=pay` with its name. */
function ProviderChoice({ invoiceId, providers }: { invoiceId: string; providers: ProviderName[] }) {
  const { t } = useTranslation()
  return (
    <Form method="post" className="space-y-3">
      <input type="hidden" name="intent" value="pay" />
      <input type="hidden" name="invoiceId" value={invoiceId} />
      <fieldset className="space-y-3">
        <legend className="font-semibold text-slate-900">{t('payment.choose')}</legend>
        <ul className="grid gap-3 sm:grid-cols-2">
          {providers.map((provider) => (
            <li key={provider} className="space-y-1">
              <button
                type="submit"
                name="provider"
                value={provider}
                aria-describedby={`pay-hint-${provider}`}
                className="min-h-11 w-full rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
              >
                {t(`payment.payWith.${provider}`)}
              </button>
              <p id={`pay-hint-${provider}`} className="text-sm text-slate-700">
                {t(`payment.hints.${provider}`)}
              </p>
            </li>
          ))}
        </ul>
      </fieldset>
      <p className="text-sm text-slate-700">{t('payment.secure')}</p>
    </Form>
  )
}

/**
 * Paying in local currency (dLocal): the country (a GET form: the page comes back with its
 * methods, without JavaScript too), then one button per method offered there, each posting
 * `intent=pay` with provider `dlocal`, the country and the method.
 */
function LocalChoice({
  invoiceId,
  local,
}: {
  invoiceId: string
  local: NonNullable<PaymentPanelData['local']>
}) {
  const { t } = useTranslation()
  return (
    <section
      aria-labelledby="local-pay-heading"
      className="space-y-3 rounded-md border border-slate-200 p-3"
      data-testid="local-payments"
    >
      <h4 id="local-pay-heading" className="font-semibold text-slate-900">
        {t('payment.local.heading')}
      </h4>
      <p className="text-slate-700">{t('payment.local.lead')}</p>
      <Form method="get" preventScrollReset className="flex flex-wrap items-end gap-2">
        <div className="space-y-1">
          <label htmlFor="pay-country" className="block font-semibold text-slate-900">
            {t('payment.local.country')}
          </label>
          <select
            id="pay-country"
            name="payCountry"
            defaultValue={local.country ?? ''}
            className={`${inputClass} min-w-48`}
          >
            {local.country ? null : <option value="">—</option>}
            {local.countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          className="min-h-11 rounded-md border border-slate-400 bg-white px-4 font-semibold text-slate-900 hover:bg-slate-50"
        >
          {t('payment.local.showMethods')}
        </button>
      </Form>
      {local.country === null ? (
        <p className="text-slate-700">{t('payment.local.chooseCountry')}</p>
      ) : local.methods.length === 0 ? (
        <p className="text-slate-700">{t('payment.local.none')}</p>
      ) : (
        <Form method="post" className="space-y-3">
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="invoiceId" value={invoiceId} />
          <input type="hidden" name="provider" value="dlocal" />
          <input type="hidden" name="country" value={local.country} />
          <ul className="grid gap-3 sm:grid-cols-2">
            {local.methods.map((method) => (
              <li key={method} className="space-y-1">
                <button
                  type="submit"
                  name="method"
                  value={method}
                  aria-describedby={`local-hint-${method}`}
                  className="min-h-11 w-full rounded-md bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
                >
                  {t(`payment.local.methods.${method}`)}
                </button>
                <p id={`local-hint-${method}`} className="text-sm text-slate-700">
                  {t(`payment.local.hints.${method}`)}
                </p>
              </li>
            ))}
          </ul>
        </Form>
      )}
    </section>
  )
}

/** A voucher issued and not yet paid: what to pay, with which reference, by when, and its page. */
function VoucherNote({
  voucher,
  totalLabel,
}: {
  voucher: NonNullable<PaymentPanelData['voucher']>
  totalLabel: string
}) {
  const { t } = useTranslation()
  const rows: [string, string, string][] = [[t('payment.voucher.reference'), voucher.reference, 'text-xl']]
  if (voucher.barcode) rows.push([t('payment.voucher.code'), voucher.barcode, 'text-sm'])
  if (voucher.amountLabel) rows.push([t('payment.voucher.amount'), voucher.amountLabel, 'text-base'])
  if (voucher.payByLabel) {
    rows.push([
      t('payment.voucher.payBy'),
      t('payment.voucher.payByValue', { date: voucher.payByLabel }),
      'text-base',
    ])
  }
  return (
    <div
      className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-slate-900"
      data-testid="payment-voucher"
    >
      <h4 className="text-lg font-semibold">{t('payment.voucher.heading', { method: voucher.method })}</h4>
      <p>
        {voucher.amountLabel
          ? t('payment.voucher.lead', { amount: voucher.amountLabel, yen: totalLabel })
          : t('payment.voucher.leadNoAmount', { yen: totalLabel })}
      </p>
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr]">
        {rows.map(([term, value, size]) => (
          <div key={term} className="contents">
            <dt className="text-slate-700">{term}</dt>
            <dd className={`break-all font-mono font-semibold ${size}`}>{value}</dd>
          </div>
        ))}
      </dl>
      {voucher.url ? (
        <p>
          <a
            href={voucher.url}
            rel="noopener noreferrer"
            className="inline-flex min-h-11 items-center rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('payment.voucher.open')}
          </a>
        </p>
      ) : null}
      <p className="text-slate-700">{t('payment.voucher.after')}</p>
    </div>
  )
}

function BankTransfer({ panel }: { panel: PaymentPanelData }) {
  const { t, i18n } = useTranslation()
  const { bankTransfer } = panel
  const language = i18n.language === 'en' ? 'en' : 'es'
  const rows: [string, string][] = [
    [t('payment.bank.amount'), panel.totalLabel],
    [t('payment.bank.reference'), panel.invoice?.number ?? ''],
    [t('payment.bank.bankName'), bankTransfer.bankName],
    [t('payment.bank.branch'), inLanguage(bankTransfer.branch, language)],
    [t('payment.bank.accountType'), inLanguage(bankTransfer.accountType, language)],
    [t('payment.bank.accountNumber'), bankTransfer.accountNumber],
    [t('payment.bank.accountHolder'), bankTransfer.accountHolder],
  ]
  if (bankTransfer.swift) rows.push([t('payment.bank.swift'), bankTransfer.swift])
  return (
    <div className="space-y-3" data-testid="bank-transfer">
      <p className="text-slate-800">{t('payment.bankLead', { amount: panel.totalLabel })}</p>
      <dl className="grid gap-x-6 gap-y-1 sm:grid-cols-[auto_1fr]">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-700">{term}</dt>
            <dd className="break-words font-semibold text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="whitespace-pre-line text-slate-800" data-testid="bank-instructions">
        {bankTransfer.instructions[language]}
      </p>
      <p className="text-slate-700">{t('payment.bankFees', { amount: panel.totalLabel })}</p>
      <p className="text-slate-700">{t('payment.bankAfter')}</p>
    </div>
  )
}

/**
 * "I have paid": a multipart post to the page's own action (`intent=report_transfer`), with an
 * optional photo or PDF of the bank's receipt and a note. Works without JavaScript.
 */
function ReportTransferForm({
  invoiceId,
  lastResult,
}: {
  invoiceId: string
  lastResult: SubmissionResult<string[]> | null
}) {
  const { t } = useTranslation()
  const [form, fields] = useForm<{ invoiceId: string; note: string; proof: File }>({
    id: 'report-transfer',
    lastResult: lastResult ?? undefined,
  })
  const error = (errors: string[] | undefined) => errorTextIn(t, 'payment.errors', errors?.[0])
  const formError = errorText(t, form.errors?.[0])
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      {...getFormProps(form)}
      className="mt-4 space-y-3 rounded-md border border-slate-200 p-3"
      aria-labelledby="report-transfer-heading"
    >
      <h4 id="report-transfer-heading" className="font-semibold text-slate-900">
        {t('payment.transfer.heading')}
      </h4>
      <p className="text-slate-700">{t('payment.transfer.lead')}</p>
      <FormAlert id={form.errorId}>{formError}</FormAlert>
      <input type="hidden" name="intent" value="report_transfer" />
      <input type="hidden" name="invoiceId" value={invoiceId} />
      <FormField
        id="transfer-proof"
        label={t('payment.transfer.proof')}
        hint={t('payment.transfer.proofHint')}
        error={error(fields.proof?.errors)}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            name="proof"
            accept={TRANSFER_PROOF_ACCEPT}
            className={fileInputClass}
          />
        )}
      </FormField>
      <FormField
        id="transfer-note"
        label={t('payment.transfer.note')}
        hint={t('payment.transfer.noteHint', { count: TRANSFER_LIMITS.note })}
        error={error(fields.note.errors)}
      >
        {(control) => (
          <textarea
            {...control}
            name="note"
            rows={2}
            maxLength={TRANSFER_LIMITS.note}
            defaultValue={fields.note.initialValue ?? ''}
            className={`${inputClass} py-2`}
          />
        )}
      </FormField>
      <button
        type="submit"
        className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
      >
        {t('payment.transfer.submit')}
      </button>
    </Form>
  )
}
