import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Form, Link } from 'react-router'
import { errorText, errorTextIn } from '#app/components/error-text.ts'
import { FormAlert } from '#app/components/form-alert.tsx'
import { ImportEstimate } from '#app/components/landed-cost/import-estimate.tsx'
import { ShippingBreakdown } from '#app/components/orders/shipping-breakdown.tsx'
import { PackagePhotos } from '#app/components/orders/warehouse-panel.tsx'
import { YenAmount } from '#app/components/orders/yen-amount.tsx'
import type { YenRates } from '#core/money/money.ts'
import type { Currency, Language } from '#core/preferences/preferences.ts'
import { SHIPPING_METHODS, type ShippingMethod } from '#core/pricing/pricing.ts'
import type { Route } from './+types/shipping.ts'

// The shipping tab's form (./shipping.tsx): the items at our office, each to tick, then the address,
// the method and the estimate. "See the estimate" and "ask to ship" are its two buttons.

type ShippingData = Route.ComponentProps['loaderData']
type ShippingAnswer = Route.ComponentProps['actionData']
type StoredItemView = ShippingData['items'][number]

/** The stored items to choose from and, while some can still be sent, where and how to send them. */
export function ShipForm({
  items,
  addresses,
  money,
  answer,
}: {
  items: ShippingData['items']
  addresses: ShippingData['addresses']
  money: ShippingData['money']
  answer: ShippingAnswer
}) {
  const { t } = useTranslation()
  const shippable = items.filter((item) => !item.shipment)
  const sent = answer?.sent
  const fieldError = (name: string) => {
    const key = answer?.errors?.[name]?.[0]
    return errorTextIn(t, 'shipments.errors', key)
  }
  return (
    <Form method="post" className="space-y-6">
      <section aria-labelledby="stored-heading" className="space-y-3">
        <h2 id="stored-heading" className="text-xl font-semibold text-slate-900">
          {t('shippingTab.storedHeading', { count: items.length })}
        </h2>
        {shippable.length > 0 ? (
          <p className="max-w-3xl text-slate-700">{t('shipments.chooseLead')}</p>
        ) : null}
        <FormAlert tone="warning" look="box">
          {errorText(t, answer?.messageKey)}
        </FormAlert>
        {fieldError('items') ? (
          <p id="items-error" className="font-medium text-red-800">
            {fieldError('items')}
          </p>
        ) : null}
        <ul className="space-y-3">
          {items.map((item) => (
            <StoredItem
              key={item.id}
              item={item}
              money={money}
              chosen={sent?.items.includes(item.id) ?? false}
              itemsInvalid={Boolean(fieldError('items'))}
            />
          ))}
        </ul>
      </section>
      {shippable.length > 0 ? (
        <ShipmentChoice
          addresses={addresses}
          answer={answer}
          addressError={fieldError('addressId')}
          methodError={fieldError('method')}
        />
      ) : null}
    </Form>
  )
}

/**
 * One item at our office: its request and package, weight, arrival and photos; the shipment it is in,
 * or its free storage left and the box to choose it.
 */
function StoredItem({
  item,
  money,
  chosen,
  itemsInvalid,
}: {
  item: StoredItemView
  money: ShippingData['money']
  /** Ticked when the page comes back from the server. */
  chosen: boolean
  /** Whether the list's error ("choose an item") shows. */
  itemsInvalid: boolean
}) {
  const { t } = useTranslation()
  const heading =
    item.title ?? t('shippingTab.itemTitle', { position: item.position, number: item.requestNumber })
  return (
    <li
      className={`grid gap-3 rounded-lg border p-4 sm:grid-cols-[minmax(0,1fr)_auto] ${
        item.endingSoon ? 'border-amber-500 bg-amber-50' : 'border-slate-200'
      }`}
    >
      <div className="min-w-0 space-y-1">
        <h3 id={`item-${item.id}`} className="font-semibold break-words text-slate-900">
          {heading}
        </h3>
        <p className="text-sm text-slate-700">
          <Link
            to={`/user-dashboard/requests/${item.requestId}`}
            className="font-semibold text-red-800 underline"
          >
            {t('shippingTab.requestLink', { number: item.requestNumber })}
          </Link>
          {' · '}
          {item.shopHost} · {t('shippingTab.packageLabel', { number: item.packageNumber })}
        </p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-slate-800">
          <dt className="font-medium">{t('shippingTab.weight')}</dt>
          <dd>{item.weightLabel}</dd>
          <dt className="font-medium">{t('shippingTab.arrived')}</dt>
          <dd>{item.arrivedLabel}</dd>
        </dl>
        {item.shipment ? (
          <>
            <p className="text-slate-800">
              <Link
                to={`/user-dashboard/shipments/${item.shipment.id}`}
                className="font-semibold text-red-800 underline"
              >
                {t('shipments.inShipment', { number: item.shipment.number })}
              </Link>
            </p>
            <StorageFee fee={item.storageFee} money={money} inShipment />
          </>
        ) : (
          <>
            <p className={item.endingSoon ? 'font-semibold text-amber-950' : 'text-slate-800'}>
              {item.expired
                ? t('shippingTab.storageOver', { date: item.untilLabel })
                : t('shippingTab.daysLeft', { count: item.daysLeft, date: item.untilLabel })}
            </p>
            <StorageFee fee={item.storageFee} money={money} inShipment={false} />
            <div className="flex min-h-11 items-center gap-3">
              <input
                type="checkbox"
                id={`ship-${item.id}`}
                name="items"
                value={item.id}
                defaultChecked={chosen}
                aria-describedby={`item-${item.id}${itemsInvalid ? ' items-error' : ''}`}
                className="size-5 accent-red-700"
              />
              <label htmlFor={`ship-${item.id}`} className="font-medium text-slate-900">
                {t('shipments.select')}
              </label>
            </div>
          </>
        )}
      </div>
      <PackagePhotos number={item.packageNumber} photos={item.photos} altKey="shippingTab.photoAlt" />
    </li>
  )
}

/** Where and how to send the chosen items, the estimate once asked, and the form's two buttons. */
function ShipmentChoice({
  addresses,
  answer,
  addressError,
  methodError,
}: {
  addresses: ShippingData['addresses']
  answer: ShippingAnswer
  addressError: string | null
  methodError: string | null
}) {
  const { t } = useTranslation()
  // The address chosen decides the methods offered (its country's, issue 30).
  const [addressId, setAddressId] = useState(
    answer?.sent.addressId || addresses.find((address) => address.isDefault)?.id || addresses[0]?.id || '',
  )
  const chosen = addresses.find((address) => address.id === addressId) ?? null
  return (
    <section aria-labelledby="choose-heading" className="space-y-4 rounded-lg border border-slate-200 p-4">
      <h2 id="choose-heading" className="text-xl font-semibold text-slate-900">
        {t('shipments.chooseHeading')}
      </h2>
      {addresses.length === 0 ? (
        <p className="text-slate-800">
          {t('shipments.addressNone')}{' '}
          <Link to="/user-dashboard/profile/addresses/new" className="font-semibold text-red-800 underline">
            {t('shipments.addAddress')}
          </Link>
        </p>
      ) : (
        <AddressChoice
          addresses={addresses}
          addressId={addressId}
          onChoose={setAddressId}
          error={addressError}
        />
      )}
      <MethodChoice address={chosen} sentMethod={answer?.sent.method} error={methodError} />
      {answer?.estimate ? <EstimatePanel estimate={answer.estimate} /> : null}
      {addresses.length > 0 ? (
        <div className="flex flex-wrap gap-3">
          <button
            type="submit"
            name="intent"
            value="estimate"
            className="min-h-11 rounded-md border border-red-700 px-4 font-semibold text-red-800 hover:bg-red-50"
          >
            {t('shipments.estimateButton')}
          </button>
          <button
            type="submit"
            name="intent"
            value="request"
            className="min-h-11 rounded-md bg-red-700 px-5 font-semibold text-white hover:bg-red-800"
          >
            {t('shipments.requestButton')}
          </button>
        </div>
      ) : null}
    </section>
  )
}

/** The address book as a list to pick from: the one sent back, else the default, else the first. */
function AddressChoice({
  addresses,
  addressId,
  onChoose,
  error,
}: {
  addresses: ShippingData['addresses']
  addressId: string
  onChoose: (id: string) => void
  error: string | null
}) {
  const { t } = useTranslation()
  return (
    <div className="space-y-1">
      <label htmlFor="ship-address" className="block text-sm font-medium text-slate-800">
        {t('shipments.address')}
      </label>
      <select
        id="ship-address"
        name="addressId"
        value={addressId}
        onChange={(event) => onChoose(event.currentTarget.value)}
        aria-describedby={error ? 'address-error' : undefined}
        aria-invalid={error ? true : undefined}
        className="block min-h-11 w-full max-w-xl rounded-md border border-slate-400 bg-white px-3 text-base text-slate-900"
      >
        {addresses.map((address) => (
          <option key={address.id} value={address.id}>
            {address.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id="address-error" className="text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
      <Link
        to="/user-dashboard/profile/addresses/new"
        className="inline-flex min-h-11 items-center text-sm font-semibold text-red-800 underline"
      >
        {t('shipments.addAddress')}
      </Link>
    </div>
  )
}

/**
 * The shipping methods the chosen address's country can use (issue 30): the one sent back, else
 * the first it can use; a method it cannot use stays listed, not selectable, with why.
 */
function MethodChoice({
  address,
  sentMethod,
  error,
}: {
  address: ShippingData['addresses'][number] | null
  sentMethod: string | undefined
  error: string | null
}) {
  const { t } = useTranslation()
  const choices =
    address?.methods ?? SHIPPING_METHODS.map((method) => ({ method, available: true, note: null }))
  const usable = (method: string) => choices.some((choice) => choice.method === method && choice.available)
  const checked: ShippingMethod | undefined =
    sentMethod && usable(sentMethod)
      ? (sentMethod as ShippingMethod)
      : choices.find((choice) => choice.available)?.method
  const missing = choices.some((choice) => !choice.available)
  return (
    <fieldset className="space-y-2" aria-describedby={error ? 'method-error' : undefined}>
      <legend className="text-sm font-medium text-slate-800">{t('shipments.method')}</legend>
      {missing && address ? (
        <p className="text-sm text-slate-700">
          {t('landedCustomer.methodsMissing', { country: address.country })}
        </p>
      ) : null}
      {choices.map((choice) => (
        <div key={`${address?.id ?? ''}-${choice.method}`} className="space-y-1">
          <div className="flex min-h-11 items-center gap-3">
            <input
              type="radio"
              id={`method-${choice.method}`}
              name="method"
              value={choice.method}
              defaultChecked={checked === choice.method}
              disabled={!choice.available}
              aria-describedby={choice.note ? `method-${choice.method}-note` : undefined}
              className="size-5 accent-red-700 disabled:opacity-50"
            />
            <label
              htmlFor={`method-${choice.method}`}
              className={choice.available ? 'text-slate-900' : 'text-slate-600 line-through'}
            >
              {t(`shipments.methods.${choice.method}`)}
            </label>
          </div>
          {choice.note ? (
            <p id={`method-${choice.method}-note`} className="ms-8 text-sm text-slate-700">
              {choice.available || !address
                ? choice.note
                : `${t('landedCustomer.methodUnavailable', { country: address.country })} ${choice.note}`}
            </p>
          ) : null}
        </div>
      ))}
      {error ? (
        <p id="method-error" className="text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

type EstimateAnswer = NonNullable<NonNullable<ShippingAnswer>['estimate']>

function EstimatePanel({ estimate }: { estimate: EstimateAnswer }) {
  const { t } = useTranslation()
  if (!estimate.ok) {
    return (
      <p role="status" className="rounded-md bg-amber-50 p-3 font-medium text-amber-950">
        {t(estimate.refusal === 'tooHeavy' ? 'shipments.tooHeavy' : 'shipments.noRate', {
          weight: estimate.weight,
          max: estimate.max,
        })}
      </p>
    )
  }
  return (
    <section
      role="status"
      aria-labelledby="estimate-heading"
      className="space-y-2 rounded-md bg-slate-50 p-4"
    >
      <h3 id="estimate-heading" className="font-semibold text-slate-900">
        {t('shipments.estimateHeading')} · {estimate.country}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-slate-800">
        <dt className="font-medium">{t('shipments.estimateWeight')}</dt>
        <dd>{estimate.weight}</dd>
        <dt className="font-medium">{t('shipments.estimateTime')}</dt>
        <dd>{t(`shipments.delivery.${estimate.deliveryTime}`)}</dd>
        <dt className="font-medium">{t('shipments.estimateRoute')}</dt>
        <dd>{t(`shipments.routes.${estimate.route}`)}</dd>
      </dl>
      <ShippingBreakdown
        data={estimate.breakdown}
        language={estimate.language}
        currency={estimate.currency}
        rates={estimate.rates}
        shippingLabel={t('shipments.estimatePrice')}
        totalLabel={t('shippingCosts.estimateTotal')}
        testId="shipment-estimate"
      />
      {estimate.breakdown.storage.length > 0 ? (
        <p className="text-sm text-slate-700">{t('shippingCosts.storageStops')}</p>
      ) : null}
      <p className="text-sm text-slate-700">{t('shipments.estimateNote')}</p>
      {estimate.landed ? (
        <div className="space-y-2">
          <p className="text-sm text-slate-700">
            {t('landedCustomer.shippingLead', { country: estimate.country })}
          </p>
          <ImportEstimate
            frozen={estimate.landed.frozen}
            paidJpy={estimate.landed.paidJpy}
            warnings={estimate.landed.warnings}
            currency={estimate.currency}
            rates={estimate.landed.yenRates}
            language={estimate.language}
            headingLevel={3}
            id="shipping-import"
          />
        </div>
      ) : null}
    </section>
  )
}

/**
 * What an item's storage has cost so far past its free days (docs/decisions/037): the days × the
 * daily fee, in yen and about how much in the visitor's currency, before tax; nothing while it is
 * within its free days. In a shipment request the figure is final (the clock stopped).
 */
function StorageFee({
  fee,
  money,
  inShipment,
}: {
  fee: { days: number; feePerDayJpy: number; feeJpy: number }
  money: {
    language: Language
    currency: Currency
    rates: YenRates | null
    feePerDay: string
    taxRate: string
  }
  inShipment: boolean
}) {
  const { t } = useTranslation()
  if (fee.days <= 0 || fee.feeJpy <= 0) return null
  return (
    <div
      className="rounded-md border border-amber-300 bg-amber-50 p-2 text-slate-900"
      data-testid="storage-fee"
    >
      <p className="flex flex-wrap items-baseline gap-x-2 font-semibold">
        <span>
          {t(inShipment ? 'shippingCosts.feeInShipment' : 'shippingCosts.feeSoFar', {
            count: fee.days,
            fee: money.feePerDay,
          })}
        </span>
        <YenAmount
          amountJpy={fee.feeJpy}
          currency={money.currency}
          language={money.language}
          rates={money.rates}
        />
      </p>
      <p className="text-sm text-slate-800">
        {t(inShipment ? 'shippingCosts.feeInShipmentHint' : 'shippingCosts.feeSoFarHint', {
          rate: money.taxRate,
          fee: money.feePerDay,
        })}
      </p>
    </div>
  )
}
