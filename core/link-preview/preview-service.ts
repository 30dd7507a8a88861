import { and, eq, gt, inArray, isNotNull, lt, sql } from 'drizzle-orm'
import { z } from 'zod'
import { AppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import { consumeRateLimit, type RateLimitRule } from '#core/shared/rate-limit.ts'
import { type Actor, requireActor } from '#core/shared/service-context.ts'
import { makeThumbnail, processPhoto } from '#core/uploads/images.ts'
import type { Database } from '#db/client.ts'
import { linkPreviewImages, linkPreviews, purchaseRequests, requestItems } from '#db/schema/index.ts'
import { type FetchPolicy, type ItemPreview, isPreviewable, previewLink } from './link-preview.ts'
import { fetchShopImage } from './safe-fetch.ts'
import { isAllowedHost } from './shop-url.ts'

/**
 * Reading a pasted link for a customer (issue 31, docs/decisions/047): the pure pre-check (an
 * allow-listed shop, https), then the shared cache (an hour for an item read, ten minutes for a
 * page that could not be read), then the per-account and per-address limits, and only then the
 * network (./safe-fetch.ts). A link that cannot be read answers `unread`, never an error: the form
 * stays as it is and the customer types the price. Refusals are logged with the reason and the
 * shop's host only, never the link or who pasted it.
 */

/** What the browser and the staff page are shown of an item read from its shop's page. */
export type ShownPreview = {
  title: string | null
  priceYen: number | null
  imageUrl: string | null
  availability: 'inStock' | 'soldOut' | null
  variant: string | null
  domesticShippingYen: number | null
  auction: { currentPriceYen: number; endsAt: string } | null
  host: string
  /** ISO time the shop's page was read. */
  readAt: string
}

export type PreviewAnswer =
  | { status: 'read'; preview: ShownPreview }
  | { status: 'unread' }
  | { status: 'limited'; retryAfterSeconds: number }

export const PREVIEW_CACHE = { readMs: 60 * 60 * 1000, unreadMs: 10 * 60 * 1000 } as const

/** A person pastes a few links a minute; a script pasting hundreds is stopped. */
export const PREVIEW_RATE_LIMITS = {
  perAddress: { limit: 40, windowSeconds: 10 * 60 },
  perAccount: { limit: 60, windowSeconds: 10 * 60 },
  /** Photos read from a shop (not those already kept), per address. */
  photosPerAddress: { limit: 60, windowSeconds: 10 * 60 },
} as const satisfies Record<string, RateLimitRule>

export const PREVIEW_URL_MAX = 2000

type PreviewLog = { info(fields: Record<string, unknown>, message: string): void }

export type PreviewDeps = {
  db: Database
  /** The allow-listed shop hosts (the `previewHosts` setting). */
  hosts: () => Promise<readonly string[]>
  /** Tests only: every fetch goes to the local shop stand-in (LINK_PREVIEW_STAND_IN). */
  standIn?: FetchPolicy['standIn']
  log?: PreviewLog
  now?: () => Date
  /** The reader (./link-preview.ts); a test may count its calls. */
  read?: typeof previewLink
  /** The photo reader (./safe-fetch.ts). */
  readImage?: typeof fetchShopImage
}

/**
 * Where a shop's photos live besides the shop's own host (a page may name a photo anywhere; only
 * these, and the allow-listed shops, are ever fetched): Mercari, Amazon, Rakuten, Yahoo!,
 * ZOZOTOWN's image hosts. A shop an admin adds serves its photos from its own host or gets none.
 */
export const PREVIEW_IMAGE_HOSTS = [
  'mercdn.net',
  'media-amazon.com',
  'ssl-images-amazon.com',
  'r10s.jp',
  'yimg.jp',
  'imgz.jp',
] as const

/** A preview's photo is kept this long; then read again when asked for. */
export const PREVIEW_IMAGE_KEPT_MS = 30 * 86_400_000

const Outcome = z.union([
  z.object({ ok: z.literal(true), preview: z.custom<ShownPreview>((value) => typeof value === 'object') }),
  z.object({ ok: z.literal(false), reason: z.string() }),
])
type StoredOutcome = z.infer<typeof Outcome>

export function createPreviewService(deps: PreviewDeps) {
  const now = deps.now ?? (() => new Date())
  const read = deps.read ?? previewLink
  const readImage = deps.readImage ?? fetchShopImage

  /** Whether a page read in the last day, or an item's kept preview, names this photo. */
  async function namedPhoto(url: string): Promise<boolean> {
    const since = new Date(now().getTime() - 86_400_000)
    const [named] = await deps.db
      .select({ one: sql<number>`1` })
      .from(linkPreviews)
      .where(
        and(
          gt(linkPreviews.readAt, since),
          sql`${linkPreviews.outcome} -> 'preview' ->> 'imageUrl' = ${url}`,
        ),
      )
      .limit(1)
    if (named) return true
    const [kept] = await deps.db
      .select({ one: sql<number>`1` })
      .from(requestItems)
      .where(and(isNotNull(requestItems.preview), sql`(${requestItems.preview} ->> 'imageUrl') = ${url}`))
      .limit(1)
    return kept !== undefined
  }

  async function cachedOutcome(url: string): Promise<StoredOutcome | null> {
    const [row] = await deps.db
      .select({ outcome: linkPreviews.outcome, readAt: linkPreviews.readAt })
      .from(linkPreviews)
      .where(eq(linkPreviews.url, url))
    if (!row) return null
    const outcome = Outcome.safeParse(row.outcome)
    if (!outcome.success) return null
    const age = now().getTime() - row.readAt.getTime()
    return age < (outcome.data.ok ? PREVIEW_CACHE.readMs : PREVIEW_CACHE.unreadMs) ? outcome.data : null
  }

  async function fetchAndKeep(url: string): Promise<StoredOutcome> {
    const hosts = await deps.hosts()
    const result = await read(url, {
      allowedHosts: hosts,
      ...(deps.standIn ? { standIn: deps.standIn } : {}),
    })
    const readAt = now()
    const outcome: StoredOutcome = result.ok
      ? { ok: true, preview: shown(result.preview, readAt) }
      : { ok: false, reason: result.reason }
    if (!result.ok)
      deps.log?.info({ linkPreview: result.reason, host: hostOf(url) }, 'link preview: not read')
    await deps.db
      .insert(linkPreviews)
      .values({ url, outcome, readAt })
      .onConflictDoUpdate({ target: linkPreviews.url, set: { outcome, readAt } })
    // Rows older than a day serve nothing: cleared now and then, not on every read.
    if (Math.random() < 0.02) {
      await deps.db
        .delete(linkPreviews)
        .where(lt(linkPreviews.readAt, new Date(readAt.getTime() - 86_400_000)))
    }
    return outcome
  }

  const photosInFlight = new Map<string, Promise<Uint8Array | null>>()

  /** Reads a named photo through the guarded reader, makes it safe and small, and keeps it (or its failure). */
  async function readAndKeepPhoto(url: string, host: string): Promise<Uint8Array | null> {
    const fetched = await readImage(url, {
      allowedHosts: [host],
      ...(deps.standIn ? { standIn: deps.standIn } : {}),
    })
    let bytes: Uint8Array = new Uint8Array()
    if (fetched.ok) {
      try {
        bytes = (await makeThumbnail(await processPhoto(fetched.bytes))).bytes
      } catch {
        deps.log?.info({ linkPreview: 'photoUnreadable', host }, 'link preview: photo not read')
      }
    } else deps.log?.info({ linkPreview: fetched.reason, host }, 'link preview: photo not read')
    const readAt = now()
    await deps.db
      .insert(linkPreviewImages)
      .values({ url, bytes, readAt })
      .onConflictDoUpdate({ target: linkPreviewImages.url, set: { bytes, readAt } })
    if (Math.random() < 0.02) {
      await deps.db
        .delete(linkPreviewImages)
        .where(lt(linkPreviewImages.readAt, new Date(readAt.getTime() - PREVIEW_IMAGE_KEPT_MS)))
    }
    return bytes.length > 0 ? bytes : null
  }

  return {
    /**
     * The item behind `url` for whoever pasted it (`accountId` null for a visitor), limited per
     * address (`clientKey`) and per account.
     * @throws AppError `invalid` (reason `previewUrlInvalid`) for something that is not a link.
     */
    async preview(
      url: unknown,
      who: { accountId: string | null; clientKey: string },
    ): Promise<PreviewAnswer> {
      const link = checkedUrl(url)
      if (!isPreviewable(link, await deps.hosts())) {
        deps.log?.info({ linkPreview: 'hostNotAllowed' }, 'link preview: not read')
        return { status: 'unread' }
      }
      const cached = await cachedOutcome(link)
      if (cached) return answerOf(cached)
      const limits = [
        consumeRateLimit(deps.db, `link-preview:${who.clientKey}`, PREVIEW_RATE_LIMITS.perAddress, now()),
        ...(who.accountId
          ? [
              consumeRateLimit(
                deps.db,
                `link-preview:user:${who.accountId}`,
                PREVIEW_RATE_LIMITS.perAccount,
                now(),
              ),
            ]
          : []),
      ]
      const refused = (await Promise.all(limits)).find((limit) => !limit.allowed)
      if (refused) {
        deps.log?.info({ linkPreview: 'rateLimited' }, 'link preview: not read')
        return { status: 'limited', retryAfterSeconds: refused.retryAfterSeconds }
      }
      return answerOf(await fetchAndKeep(link))
    },

    /**
     * A preview's photo as a small WebP made safe like an upload (decoded, re-encoded, no
     * metadata), or null: only a photo a page read named, on a shop's host or one of
     * `PREVIEW_IMAGE_HOSTS`, is fetched, through the same guarded reader (https, public addresses,
     * a size limit), limited per address, read once when asked at once, and kept for a month (a
     * failure for ten minutes).
     */
    async image(url: unknown, who: { clientKey: string }): Promise<Uint8Array | null> {
      if (typeof url !== 'string' || url.length === 0 || url.length > PREVIEW_URL_MAX) return null
      const [kept] = await deps.db
        .select({ bytes: linkPreviewImages.bytes, readAt: linkPreviewImages.readAt })
        .from(linkPreviewImages)
        .where(eq(linkPreviewImages.url, url))
      if (kept) {
        const age = now().getTime() - kept.readAt.getTime()
        // An empty row is a photo that could not be read: not asked of its shop again for a while.
        if (kept.bytes.length === 0 && age < PREVIEW_CACHE.unreadMs) return null
        if (kept.bytes.length > 0 && age < PREVIEW_IMAGE_KEPT_MS) return kept.bytes
      }
      const host = hostOf(url)
      if (!host || !isAllowedHost(host, [...(await deps.hosts()), ...PREVIEW_IMAGE_HOSTS])) return null
      if (!(await namedPhoto(url))) return null
      const limit = await consumeRateLimit(
        deps.db,
        `link-preview-image:${who.clientKey}`,
        PREVIEW_RATE_LIMITS.photosPerAddress,
        now(),
      )
      if (!limit.allowed) return null
      // Asked for at once by several visitors: read once.
      const reading = photosInFlight.get(url) ?? readAndKeepPhoto(url, host)
      photosInFlight.set(url, reading)
      try {
        return await reading
      } finally {
        photosInFlight.delete(url)
      }
    },

    /**
     * Staff read an item's link again ("read again" on the request page): fetched now, past the
     * cache, and kept on the item. Staff only; no rate limit beyond the shop's own.
     * @returns the item read, or null when the page could not be read (the item keeps what it had).
     */
    async readItemAgain(
      actor: Actor | null,
      requestId: string,
      itemId: unknown,
    ): Promise<ShownPreview | null> {
      requireActor(actor, 'Reading a link again needs a session', {
        staffOnly: 'Reading a link again is for staff',
      })
      if (!isUuid(requestId) || typeof itemId !== 'string' || !isUuid(itemId))
        throw new AppError('not_found', 'No such item', { reason: 'requestNotFound' })
      const [item] = await deps.db
        .select({ url: requestItems.url })
        .from(requestItems)
        .innerJoin(purchaseRequests, eq(purchaseRequests.id, requestItems.requestId))
        .where(and(eq(requestItems.id, itemId), eq(purchaseRequests.id, requestId)))
      if (!item) throw new AppError('not_found', 'No such item', { reason: 'requestNotFound' })
      if (!isPreviewable(item.url, await deps.hosts())) return null
      const outcome = await fetchAndKeep(item.url)
      if (!outcome.ok) return null
      await deps.db.update(requestItems).set({ preview: outcome.preview }).where(eq(requestItems.id, itemId))
      return outcome.preview
    },
  }
}

export type PreviewService = ReturnType<typeof createPreviewService>

/**
 * The items read for these links within the last hour, by link: what a new request keeps of them
 * (core/orders/request-service.ts). Only the cache is read; nothing is fetched.
 */
export async function keptPreviews(
  db: Database,
  urls: readonly string[],
  now = new Date(),
): Promise<Map<string, ShownPreview>> {
  const kept = new Map<string, ShownPreview>()
  if (urls.length === 0) return kept
  const rows = await db
    .select({ url: linkPreviews.url, outcome: linkPreviews.outcome })
    .from(linkPreviews)
    .where(
      and(
        inArray(linkPreviews.url, [...new Set(urls)]),
        gt(linkPreviews.readAt, new Date(now.getTime() - PREVIEW_CACHE.readMs)),
      ),
    )
  for (const row of rows) {
    const outcome = Outcome.safeParse(row.outcome)
    if (outcome.success && outcome.data.ok) kept.set(row.url, outcome.data.preview)
  }
  return kept
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/

function checkedUrl(url: unknown): string {
  if (
    typeof url !== 'string' ||
    url.trim() === '' ||
    url.length > PREVIEW_URL_MAX ||
    CONTROL_CHARACTERS.test(url)
  )
    throw new AppError('invalid', 'A link preview needs a link', { reason: 'previewUrlInvalid' })
  return url.trim()
}

function answerOf(outcome: StoredOutcome): PreviewAnswer {
  return outcome.ok ? { status: 'read', preview: outcome.preview } : { status: 'unread' }
}

function shown(preview: ItemPreview, readAt: Date): ShownPreview {
  return {
    title: preview.title,
    priceYen: preview.priceYen,
    imageUrl: preview.imageUrl,
    availability: preview.availability,
    variant: preview.variant,
    domesticShippingYen: preview.domesticShippingYen,
    auction: preview.auction,
    host: preview.host,
    readAt: readAt.toISOString(),
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname
  } catch {
    return null
  }
}
