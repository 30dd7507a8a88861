import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isPreviewable } from '#core/link-preview/preview-path.ts'
import type { ShownPreview } from '#core/link-preview/preview-service.ts'
import { formatMoney } from '#core/money/money.ts'

/**
 * What a pasted link reads as (issue 31): once a link of an allow-listed shop (`hosts`, the
 * `previewHosts` setting) is typed, the
 * server reads the shop's page (GET /api/v1/link-preview) and the item shows here, title, price
 * and photo. A link that cannot be read shows nothing at all: the form stays as it was and the
 * customer types the price, never told their link is wrong.
 */
export function useLinkPreview(
  url: string | undefined,
  hosts: readonly string[] | undefined,
): ShownPreview | null {
  const [preview, setPreview] = useState<{ url: string; preview: ShownPreview } | null>(null)
  const link = url?.trim() ?? ''
  const readable = hosts !== undefined && isPreviewable(link, hosts)
  useEffect(() => {
    if (!readable) return
    const controller = new AbortController()
    // A pause after typing stops: one request per link, not one per key.
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(`/api/v1/link-preview?url=${encodeURIComponent(link)}`, {
          signal: controller.signal,
          headers: { Accept: 'application/json' },
        })
        if (!response.ok) return
        const answer = (await response.json()) as { status: string; preview?: ShownPreview }
        if (answer.status === 'read' && answer.preview) setPreview({ url: link, preview: answer.preview })
      } catch {
        // Offline, aborted, or an answer that is not JSON: nothing is shown, as for any unread link.
      }
    }, 350)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [link, readable])
  return preview && preview.url === link && readable ? preview.preview : null
}

/**
 * A price field a pasted link fills (the request form's estimate, the calculator): the price
 * read (an auction's current bid) until the person types their own; when the link changes to
 * one that does not read, a price it had filled goes with it, and one typed stays.
 */
export function usePriceFromLink(
  url: string | undefined,
  hosts: readonly string[] | undefined,
  initial = '',
) {
  const [price, setPrice] = useState(initial)
  const [typed, setTyped] = useState(false)
  const [filled, setFilled] = useState(false)
  const preview = useLinkPreview(url, hosts)
  const readPrice = preview?.auction?.currentPriceYen ?? preview?.priceYen ?? null
  useEffect(() => {
    if (typed) return
    if (readPrice !== null) {
      setPrice(String(readPrice))
      setFilled(true)
    } else if (filled) {
      setPrice('')
      setFilled(false)
    }
  }, [typed, readPrice, filled])
  const type = (value: string) => {
    setTyped(true)
    setPrice(value)
  }
  return { preview, price, type }
}

/**
 * The item as its shop's page shows it. `note` replaces the line under it (staff see when it was
 * read); `action` goes below (staff's "read again").
 */
export function LinkPreviewCard({
  preview,
  note,
  action,
}: {
  preview: ShownPreview
  note?: string
  action?: ReactNode
}) {
  const { t, i18n } = useTranslation()
  const language = i18n.language === 'en' ? 'en' : 'es'
  const yen = (amount: number) => formatMoney(amount, 'JPY', language)
  return (
    <figure
      aria-label={t('linkPreview.label')}
      className="flex gap-3 rounded-md border border-slate-200 bg-white p-3"
      data-testid="link-preview"
    >
      {preview.imageUrl ? (
        <img
          src={preview.imageUrl}
          alt=""
          width={96}
          height={96}
          loading="lazy"
          className="h-24 w-24 shrink-0 rounded object-contain"
        />
      ) : null}
      <figcaption className="min-w-0 space-y-1 text-sm text-slate-800">
        {preview.title ? <p className="font-semibold text-slate-900 break-words">{preview.title}</p> : null}
        {preview.auction ? (
          <p>
            {t('linkPreview.auction', {
              price: yen(preview.auction.currentPriceYen),
              end: new Intl.DateTimeFormat(language, {
                dateStyle: 'medium',
                timeStyle: 'short',
                timeZone: 'Asia/Tokyo',
              }).format(new Date(preview.auction.endsAt)),
            })}
          </p>
        ) : preview.priceYen !== null ? (
          <p>{t('linkPreview.price', { price: yen(preview.priceYen) })}</p>
        ) : null}
        {preview.variant ? <p>{t('linkPreview.variant', { variant: preview.variant })}</p> : null}
        {preview.domesticShippingYen !== null ? (
          <p>{t('linkPreview.domesticShipping', { price: yen(preview.domesticShippingYen) })}</p>
        ) : null}
        {preview.availability === 'soldOut' ? (
          <p className="font-semibold text-red-800">{t('linkPreview.soldOut')}</p>
        ) : null}
        <p className="text-xs text-slate-700">{note ?? t('linkPreview.source', { host: preview.host })}</p>
        {action}
      </figcaption>
    </figure>
  )
}
