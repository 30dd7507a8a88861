import { asc, eq, sql } from 'drizzle-orm'
import { changedPaths, recordAudit } from '#core/audit/audit-log.ts'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import { AppError } from '#core/shared/errors.ts'
import type { ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Database, Executor } from '#db/client.ts'
import { sitePages } from '#db/schema/index.ts'
import { SEED_SITE_PAGES } from './default-pages.ts'
import {
  isSitePageSlug,
  SitePageFormSchema,
  type SitePageInput,
  type SitePageSlug,
} from './site-page-text.ts'

/**
 * The public pages staff write (ADR 038): read by anyone, changed by admins only, each save in
 * one transaction with its audit record, refused when another save came first (the version).
 * A missing row (a database older than the seed) reads as the seeded text.
 */

export type SitePage = {
  slug: SitePageSlug
  title: { es: string; en: string }
  lead: { es: string; en: string }
  body: { es: string; en: string }
  version: number
  updatedAt: Date | null
}

function notFound(slug: unknown): AppError {
  return new AppError('not_found', `No site page ${String(slug).slice(0, 40)}`, { reason: 'pageNotFound' })
}

function seeded(slug: SitePageSlug): SitePage {
  // The version a seeded row starts at (db/schema/site-pages.ts).
  return { slug, ...SEED_SITE_PAGES[slug], version: 1, updatedAt: null }
}

async function read(db: Executor, slug: SitePageSlug, lock = false): Promise<SitePage> {
  const query = db.select().from(sitePages).where(eq(sitePages.slug, slug))
  const [row] = lock ? await query.for('update') : await query
  return row ? { ...row, slug } : seeded(slug)
}

/** One page, for its public route and its editor. @throws AppError `not_found` for another slug. */
export async function getSitePage(db: Database, slug: unknown): Promise<SitePage> {
  if (!isSitePageSlug(slug)) throw notFound(slug)
  return read(db, slug)
}

/** Every page, for the editor's list (admins only). */
export async function listSitePages({ db, actor }: ServiceContext): Promise<SitePage[]> {
  requireStaffAction(actor, 'manage_settings')
  const rows = await db.select().from(sitePages).orderBy(asc(sitePages.slug))
  return (['prohibited-items', 'seller-disclosure'] as const).map((slug) => {
    const row = rows.find((candidate) => candidate.slug === slug)
    return row ? { ...row, slug } : seeded(slug)
  })
}

/**
 * Saves a page's texts. Nothing changed: nothing written, nothing recorded.
 * @throws AppError `forbidden` (`adminsOnly`), `not_found`, `invalid`, `conflict` (`pageChanged`).
 */
export async function saveSitePage(
  { db, actor }: ServiceContext,
  slug: unknown,
  input: SitePageInput,
): Promise<{ version: number; changed: boolean }> {
  const editor = requireStaffAction(actor, 'manage_settings')
  if (!isSitePageSlug(slug)) throw notFound(slug)
  const parsed = SitePageFormSchema.safeParse(input)
  if (!parsed.success) throw new AppError('invalid', 'Site page input refused', { reason: 'pageInvalid' })
  const { version, ...texts } = parsed.data
  return db.transaction(async (tx) => {
    // The seeded row is there (core/seed/seed-database.ts); a database without it gets it now, then the lock.
    await tx
      .insert(sitePages)
      .values({ slug, ...SEED_SITE_PAGES[slug] })
      .onConflictDoNothing()
    const current = await read(tx, slug, true)
    if (current.version !== version)
      throw new AppError('conflict', `Site page ${slug} changed since its form was shown`, {
        reason: 'pageChanged',
      })
    const before = { title: current.title, lead: current.lead, body: current.body }
    const diff = changedPaths(before, texts)
    if (Object.keys(diff.after).length === 0) return { version: current.version, changed: false }
    const [saved] = await tx
      .update(sitePages)
      .set({ ...texts, version: current.version + 1, updatedAt: new Date() })
      .where(eq(sitePages.slug, slug))
      .returning({ version: sitePages.version })
    await recordAudit(tx, {
      actorId: editor.id,
      kind: 'page.update',
      subject: { type: 'site_page', id: slug },
      ...diff,
    })
    // The pages are cached for visitors: every process drops its cache (server/settings-listener.ts).
    await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, 'site_pages')`)
    return { version: saved?.version ?? current.version + 1, changed: true }
  })
}
