import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { changedPaths, recordAudit } from '#core/audit/audit-log.ts'
import { SETTINGS_CHANNEL } from '#core/settings/settings-service.ts'
import { setIfVersion } from '#core/shared/apply-event.ts'
import { AppError } from '#core/shared/errors.ts'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { requireStaffAction } from '#core/shared/staff-policy.ts'
import { processLogo } from '#core/uploads/logos.ts'
import type { Executor } from '#db/client.ts'
import { storeCategories, stores } from '#db/schema/index.ts'
import { STORE_CATEGORIES, type StoreCategory } from './store-categories.ts'
import { type StoreValues, slugFor } from './store-form.ts'

/**
 * The store guide editor (docs/decisions/026-store-guide-editor.md): admins add, edit, hide,
 * reorder stores and give them a logo. Every change is one transaction with its audit record and
 * a NOTIFY on the settings channel, so every app process drops its cached pages when it commits
 * (the guide shows the change at once). Edits carry the version their form showed: a save that
 * another admin's save overtook is refused (`storeChanged`), never silently applied.
 */

export type StoreRow = {
  id: number
  slug: string
  name: string
  url: string
  hidden: boolean
  categories: StoreCategory[]
  logoText: string
  logoColor: string
  /** The uploaded logo's public address, or null (the monogram is shown). */
  logoUrl: string | null
  version: number
}

export type StoreDetail = StoreRow & { values: StoreValues }

/** The public address of a store's uploaded logo: it changes with the logo, so it is cached for good. */
export function storeLogoUrl(id: number, sha256: string | null): string | null {
  return sha256 ? `/store-logos/${id}-${sha256.slice(0, 16)}.png` : null
}

/** Refuses anyone but an admin (`adminsOnly`): the editor's pages call it before showing a form. */
export function requireStoreEditor(actor: Actor | null): asserts actor is Actor {
  requireStaffAction(actor, 'manage_stores')
}

const rowColumns = {
  id: stores.id,
  slug: stores.slug,
  name: stores.name,
  url: stores.url,
  hidden: stores.hidden,
  logoText: stores.logoText,
  logoColor: stores.logoColor,
  logoSha256: stores.logoSha256,
  version: stores.version,
  descriptionEs: stores.descriptionEs,
  descriptionEn: stores.descriptionEn,
  categories: sql<
    string[]
  >`coalesce((select array_agg(${storeCategories.category}) from ${storeCategories} where ${storeCategories.storeId} = ${stores.id}), '{}')`,
}

type RawRow = {
  id: number
  slug: string
  name: string
  url: string
  hidden: boolean
  logoText: string
  logoColor: string
  logoSha256: string | null
  version: number
  descriptionEs: string
  descriptionEn: string
  categories: string[]
}

function toDetail(row: RawRow): StoreDetail {
  const categories = STORE_CATEGORIES.filter((category) => row.categories.includes(category))
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    url: row.url,
    hidden: row.hidden,
    categories,
    logoText: row.logoText,
    logoColor: row.logoColor,
    logoUrl: storeLogoUrl(row.id, row.logoSha256),
    version: row.version,
    values: {
      name: row.name,
      url: row.url,
      descriptionEs: row.descriptionEs,
      descriptionEn: row.descriptionEn,
      categories,
      logoText: row.logoText,
      logoColor: row.logoColor,
    },
  }
}

/** Every store, hidden ones too, in the guide's order. Admins only. */
export async function listStoresForEditing({ db, actor }: ServiceContext): Promise<StoreRow[]> {
  requireStoreEditor(actor)
  const rows = await db
    .select(rowColumns)
    .from(stores)
    .orderBy(asc(stores.sortOrder), asc(stores.name), asc(stores.id))
  return rows.map((row) => {
    const { values: _values, ...rest } = toDetail(row)
    return rest
  })
}

/** One store as its edit form shows it. @throws AppError `not_found` (`storeNotFound`). */
export async function getStoreForEditing({ db, actor }: ServiceContext, id: number): Promise<StoreDetail> {
  requireStoreEditor(actor)
  return toDetail(await readStore(db, id))
}

async function readStore(db: Executor, id: number, lock = false): Promise<RawRow> {
  const query = db
    .select(rowColumns)
    .from(stores)
    .where(eq(stores.id, Number.isSafeInteger(id) ? id : -1))
  const [row] = lock ? await query.for('update', { of: stores }) : await query
  if (!row) throw new AppError('not_found', `Store ${id} not found`, { reason: 'storeNotFound' })
  return row
}

/** Tells every app process (this one too) that the guide changed: cached pages go. */
async function announce(tx: Executor) {
  await tx.execute(sql`SELECT pg_notify(${SETTINGS_CHANNEL}, 'stores')`)
}

function auditValues(values: StoreValues) {
  return { ...values, categories: values.categories.join(', ') }
}

/**
 * Adds a store at the end of the guide, or changes one (`id`) whose version is still `version`.
 * @throws AppError `forbidden` (`adminsOnly`), `not_found` (`storeNotFound`), `conflict`
 *   (`storeChanged`: another save came first; nothing written).
 */
export async function saveStore(
  { db, actor }: ServiceContext,
  input: { id?: number | null; version: number; values: StoreValues },
): Promise<{ id: number; version: number; created: boolean }> {
  requireStoreEditor(actor)
  const { values } = input
  return db.transaction(async (tx) => {
    let id: number
    let version: number
    if (input.id == null) {
      const base = slugFor(values.name)
      const taken = await tx
        .select({ slug: stores.slug })
        .from(stores)
        .where(sql`${stores.slug} = ${base} or ${stores.slug} like ${`${base}-%`}`)
      const used = new Set(taken.map((row) => row.slug))
      let slug = base
      for (let n = 2; used.has(slug); n += 1) slug = `${base}-${n}`
      const [inserted] = await tx
        .insert(stores)
        .values({
          slug,
          name: values.name,
          url: values.url,
          descriptionEs: values.descriptionEs,
          descriptionEn: values.descriptionEn,
          logoText: values.logoText,
          logoColor: values.logoColor,
          sortOrder: sql`(select coalesce(max(${stores.sortOrder}), -1) + 1 from ${stores})`,
        })
        .returning({ id: stores.id, version: stores.version })
      if (!inserted) throw new Error('Store insert returned nothing')
      ;({ id, version } = inserted)
      await tx
        .insert(storeCategories)
        .values(values.categories.map((category) => ({ storeId: id, category })))
      await recordAudit(tx, {
        actorId: actor.id,
        kind: 'store.create',
        subject: { type: 'store', id: String(id) },
        before: {},
        after: auditValues(values),
      })
    } else {
      const current = toDetail(await readStore(tx, input.id, true))
      if (current.version !== input.version) {
        throw new AppError('conflict', `Store ${input.id} changed since its form was shown`, {
          reason: 'storeChanged',
        })
      }
      id = current.id
      const diff = changedPaths(auditValues(current.values), auditValues(values))
      if (Object.keys(diff.after).length === 0 && Object.keys(diff.before).length === 0) {
        return { id, version: current.version, created: false }
      }
      const saved = await setIfVersion(tx, stores, {
        id,
        set: {
          name: values.name,
          url: values.url,
          descriptionEs: values.descriptionEs,
          descriptionEn: values.descriptionEn,
          logoText: values.logoText,
          logoColor: values.logoColor,
        },
      })
      if (saved === null) throw new Error(`Store ${id} vanished under its lock`)
      version = saved
      await tx.delete(storeCategories).where(eq(storeCategories.storeId, id))
      await tx
        .insert(storeCategories)
        .values(values.categories.map((category) => ({ storeId: id, category })))
      await recordAudit(tx, {
        actorId: actor.id,
        kind: 'store.update',
        subject: { type: 'store', id: String(id) },
        ...diff,
      })
    }
    await announce(tx)
    return { id, version, created: input.id == null }
  })
}

/** Hides a store from the public guide, or shows it again; nothing happens if it already is. */
export async function setStoreHidden(
  { db, actor }: ServiceContext,
  id: number,
  hidden: boolean,
): Promise<void> {
  requireStoreEditor(actor)
  await db.transaction(async (tx) => {
    const current = await readStore(tx, id, true)
    if (current.hidden === hidden) return
    await setIfVersion(tx, stores, { id, set: { hidden } })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: hidden ? 'store.hide' : 'store.show',
      subject: { type: 'store', id: String(id) },
      before: { name: current.name, hidden: current.hidden },
      after: { name: current.name, hidden },
    })
    await announce(tx)
  })
}

/**
 * Moves a store one place up or down the guide (a no-op at either end). The whole order is
 * rewritten as 0, 1, 2… under a lock on every store, so two admins moving at once never tie.
 */
export async function moveStore(
  { db, actor }: ServiceContext,
  id: number,
  direction: 'up' | 'down',
): Promise<void> {
  requireStoreEditor(actor)
  await db.transaction(async (tx) => {
    const order = await tx
      .select({ id: stores.id, name: stores.name, sortOrder: stores.sortOrder })
      .from(stores)
      .orderBy(asc(stores.sortOrder), asc(stores.name), asc(stores.id))
      .for('update')
    const from = order.findIndex((row) => row.id === id)
    if (from === -1) throw new AppError('not_found', `Store ${id} not found`, { reason: 'storeNotFound' })
    const to = direction === 'up' ? from - 1 : from + 1
    if (to < 0 || to >= order.length) return
    const moved = order[from]
    const other = order[to]
    if (!moved || !other) return
    order[from] = other
    order[to] = moved
    const changed = order
      .map((row, index) => ({ id: row.id, index }))
      .filter((row, index) => order[index]?.sortOrder !== row.index)
    if (changed.length > 0) {
      await tx
        .update(stores)
        .set({
          sortOrder: sql`case ${stores.id} ${sql.join(
            changed.map((row) => sql`when ${row.id} then ${row.index}::int`),
            sql` `,
          )} end`,
        })
        .where(
          inArray(
            stores.id,
            changed.map((row) => row.id),
          ),
        )
    }
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'store.move',
      subject: { type: 'store', id: String(id) },
      before: { name: moved.name, position: from + 1 },
      after: { name: moved.name, position: to + 1 },
    })
    await announce(tx)
  })
}

/**
 * Gives a store a logo: the upload is checked and re-encoded (core/uploads/logos.ts) before the
 * transaction. @throws AppError `invalid` with a logo refusal, `not_found`, `forbidden`.
 */
export async function setStoreLogo(ctx: ServiceContext, id: number, bytes: Uint8Array): Promise<void> {
  requireStoreEditor(ctx.actor)
  const actor = ctx.actor
  const logo = await processLogo(bytes)
  await ctx.db.transaction(async (tx) => {
    const current = await readStore(tx, id, true)
    if (current.logoSha256 === logo.sha256) return
    await setIfVersion(tx, stores, { id, set: { logoPng: logo.png, logoSha256: logo.sha256 } })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'store.logo',
      subject: { type: 'store', id: String(id) },
      before: { name: current.name, logo: current.logoSha256 ? current.logoSha256.slice(0, 16) : null },
      after: { name: current.name, logo: logo.sha256.slice(0, 16) },
    })
    await announce(tx)
  })
}

/** Removes a store's uploaded logo: its monogram shows again. */
export async function removeStoreLogo(ctx: ServiceContext, id: number): Promise<void> {
  requireStoreEditor(ctx.actor)
  const actor = ctx.actor
  await ctx.db.transaction(async (tx) => {
    const current = await readStore(tx, id, true)
    if (!current.logoSha256) return
    await setIfVersion(tx, stores, { id, set: { logoPng: null, logoSha256: null } })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'store.logo',
      subject: { type: 'store', id: String(id) },
      before: { name: current.name, logo: current.logoSha256.slice(0, 16) },
      after: { name: current.name, logo: null },
    })
    await announce(tx)
  })
}

/**
 * A store's uploaded logo for its public address (`id` and the start of its SHA-256), or null
 * when there is none or the address is an old one. Hidden stores' logos stay readable: an
 * address already cached somewhere must not break a page mid-change.
 */
export async function readStoreLogo(db: Executor, id: number, shaStart: string): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(id) || !/^[0-9a-f]{16}$/.test(shaStart)) return null
  const [row] = await db
    .select({ png: stores.logoPng, sha256: stores.logoSha256 })
    .from(stores)
    .where(and(eq(stores.id, id), sql`${stores.logoSha256} like ${`${shaStart}%`}`))
  return row?.png ?? null
}
