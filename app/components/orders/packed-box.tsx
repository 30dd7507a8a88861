import { useTranslation } from 'react-i18next'

/** What packing recorded, written out for the page (app/routes/{customer,admin}/shipment.tsx). */
export type PackedBoxData = {
  weight: string
  size: { length: number; width: number; height: number } | null
  price: string
  photo: { full: string; thumb: string } | null
  receipt: { href: string; number: string } | null
}

/** The packed box: weight, size, the shipping price, the photo and the shipping receipt. */
export function PackedBox({
  box,
  heading,
  receiptText,
  children,
}: {
  box: PackedBoxData
  heading: string
  /** The receipt link's words (the customer's "your receipt", staff's "receipt N"). */
  receiptText: string
  children?: React.ReactNode
}) {
  const { t } = useTranslation()
  return (
    <section aria-labelledby="packed-heading" className="space-y-3 rounded-lg border border-slate-300 p-4">
      <h2 id="packed-heading" className="text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <div className="flex flex-wrap gap-4">
        {box.photo ? (
          <a href={box.photo.full} className="block shrink-0">
            <img
              src={box.photo.thumb}
              alt={t('shipments.boxPhoto')}
              width={160}
              height={160}
              loading="lazy"
              className="h-40 w-40 rounded-md border border-slate-200 object-cover"
            />
            <span className="sr-only">{t('shipments.boxPhotoOpen')}</span>
          </a>
        ) : null}
        <ul className="space-y-1 text-slate-800">
          <li data-testid="packed-weight">{t('shipments.packedWeight', { weight: box.weight })}</li>
          {box.size ? <li>{t('shipments.packedSize', box.size)}</li> : null}
          <li data-testid="packed-price">{t('shipments.packedPrice', { price: box.price })}</li>
          {box.receipt ? (
            <li>
              <a href={box.receipt.href} className="font-semibold text-red-800 underline">
                {receiptText}
              </a>
            </li>
          ) : null}
        </ul>
      </div>
      {children}
    </section>
  )
}
