import { and, count, desc, eq, ne } from 'drizzle-orm'
import { type Language, parseLanguage } from '#core/preferences/preferences.ts'
import { AppError } from '#core/shared/errors.ts'
import { isUuid } from '#core/shared/ids.ts'
import { invalidInput } from '#core/shared/input-errors.ts'
import { requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import type { Executor } from '#db/client.ts'
import { addresses, users } from '#db/schema/index.ts'
import {
  type AddressInput,
  AddressSchema,
  PROFILE_LIMITS,
  type ProfileInput,
  ProfileSchema,
} from './profile-schemas.ts'

/** The profile forms name a field by its path's keys joined with dots (`form` for the whole). */
const dottedName = (path: readonly PropertyKey[]) => path.map(String).join('.') || 'form'

/** Thrown (`unauthorized`) to anyone not signed in. */
const SIGNED_IN = 'The profile needs a signed-in user'

/**
 * The customer's profile (name, phone, the language we write to them in) and their address book
 * (part 2 ships to it). Each customer reads and changes only their own: another customer's
 * address answers exactly like a missing one.
 *
 * The name lives on better-auth's `users` row. It is written here, directly, in one statement with
 * the phone and the language, rather than through better-auth's /update-user: one transaction for
 * the whole form, the same rule as better-auth's own input check (a name of at most 100 characters
 * without control characters, core/accounts/better-auth/account-input.ts) plus ours, and nothing
 * of better-auth's depends on the change (no user-update hooks; sessions are read from the
 * database on every request, without a cookie cache, so the header shows the new name at once).
 *
 * `users.language` is what e-mails and notifications are written in (server/jobs.ts). The site's
 * own language stays the visitor's choice (the switch in the header, a cookie): the two are not
 * linked anywhere else either, so changing one never changes the other.
 */

export type Profile = {
  name: string
  email: string
  phone: string | null
  language: Language
}

export type AddressView = {
  id: string
  fullName: string
  street: string
  city: string
  region: string
  postalCode: string
  country: string
  phone: string
  isDefault: boolean
}

function addressNotFound(id: unknown) {
  return new AppError('not_found', `Address ${String(id).slice(0, 80)} not found`, {
    reason: 'addressNotFound',
  })
}

/** The signed-in user's profile. */
export async function getProfile({ db, actor }: ServiceContext): Promise<Profile> {
  const user = requireActor(actor, SIGNED_IN)
  const [row] = await db
    .select({ name: users.name, email: users.email, phone: users.phone, language: users.language })
    .from(users)
    .where(eq(users.id, user.id))
  if (!row) throw new AppError('unauthorized', `User ${user.id} no longer exists`)
  return { ...row, language: parseLanguage(row.language) ?? 'es' }
}

/**
 * Saves the name, the phone (empty removes it) and the language of e-mails.
 * @throws AppError `invalid` with field errors; nothing is written then.
 */
export async function updateProfile({ db, actor }: ServiceContext, input: ProfileInput): Promise<void> {
  const user = requireActor(actor, SIGNED_IN)
  const parsed = ProfileSchema.safeParse(input)
  if (!parsed.success)
    throw invalidInput(parsed.error.issues, {
      message: 'Profile input refused',
      reason: 'profileInvalid',
      nameOf: dottedName,
    })
  const { name, phone, language } = parsed.data
  const updated = await db
    .update(users)
    .set({ name, phone: phone ?? null, language, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning({ id: users.id })
  if (updated.length === 0) throw new AppError('unauthorized', `User ${user.id} no longer exists`)
}

const addressColumns = {
  id: addresses.id,
  fullName: addresses.fullName,
  street: addresses.street,
  city: addresses.city,
  region: addresses.region,
  postalCode: addresses.postalCode,
  country: addresses.country,
  phone: addresses.phone,
  isDefault: addresses.isDefault,
}

/** The user's addresses: the default first, then the newest. */
export async function listAddresses({ db, actor }: ServiceContext): Promise<AddressView[]> {
  const user = requireActor(actor, SIGNED_IN)
  return db
    .select(addressColumns)
    .from(addresses)
    .where(eq(addresses.userId, user.id))
    .orderBy(desc(addresses.isDefault), desc(addresses.createdAt), desc(addresses.id))
}

/** One of the user's addresses. @throws AppError `not_found` for a bad, unknown or other user's id. */
export async function getAddress({ db, actor }: ServiceContext, id: string): Promise<AddressView> {
  const user = requireActor(actor, SIGNED_IN)
  if (!isUuid(id)) throw addressNotFound(id)
  const [row] = await db
    .select(addressColumns)
    .from(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, user.id)))
  if (!row) throw addressNotFound(id)
  return row
}

/**
 * Runs one change of a user's address book in a transaction that holds their user row, so two
 * tabs (or two clicks) change it one after the other: the limit and the single default hold.
 * `FOR NO KEY UPDATE` does not block the foreign-key checks of inserts, nor sign-ins.
 */
async function withAddressBook<T>(
  { db, actor }: ServiceContext,
  change: (tx: Executor, userId: string) => Promise<T>,
): Promise<T> {
  const user = requireActor(actor, SIGNED_IN)
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, user.id))
      .for('no key update')
    if (!row) throw new AppError('unauthorized', `User ${user.id} no longer exists`)
    return change(tx, user.id)
  })
}

/** Makes `id` the user's only default address (inside `withAddressBook`). */
async function makeDefault(tx: Executor, userId: string, id: string) {
  await tx
    .update(addresses)
    .set({ isDefault: false, updatedAt: new Date() })
    .where(and(eq(addresses.userId, userId), eq(addresses.isDefault, true), ne(addresses.id, id)))
  await tx
    .update(addresses)
    .set({ isDefault: true, updatedAt: new Date() })
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
}

function parseAddress(input: AddressInput) {
  const parsed = AddressSchema.safeParse(input)
  if (!parsed.success)
    throw invalidInput(parsed.error.issues, {
      message: 'Address input refused',
      reason: 'profileInvalid',
      nameOf: dottedName,
    })
  const { makeDefault: wantsDefault, region, postalCode, ...fields } = parsed.data
  return { wantsDefault, values: { ...fields, region: region ?? '', postalCode: postalCode ?? '' } }
}

/**
 * Adds an address. The first one is the default; a later one only when asked.
 * @throws AppError `invalid` (field errors), `conflict` (`addressLimit`: already 10).
 */
export async function createAddress(context: ServiceContext, input: AddressInput): Promise<{ id: string }> {
  const { wantsDefault, values } = parseAddress(input)
  return withAddressBook(context, async (tx, userId) => {
    const [existing] = await tx.select({ n: count() }).from(addresses).where(eq(addresses.userId, userId))
    const n = existing?.n ?? 0
    if (n >= PROFILE_LIMITS.addresses) {
      throw new AppError('conflict', `User ${userId} already has ${n} addresses`, { reason: 'addressLimit' })
    }
    const [row] = await tx
      .insert(addresses)
      .values({ ...values, userId })
      .returning({ id: addresses.id })
    if (!row) throw new Error('Unable to store an address: no row returned')
    if (wantsDefault || n === 0) await makeDefault(tx, userId, row.id)
    return row
  })
}

/**
 * Changes one of the user's addresses; ticking "default" makes it the default.
 * @throws AppError `not_found`, `invalid` (field errors).
 */
export async function updateAddress(context: ServiceContext, id: string, input: AddressInput): Promise<void> {
  requireActor(context.actor, SIGNED_IN)
  if (!isUuid(id)) throw addressNotFound(id)
  const { wantsDefault, values } = parseAddress(input)
  await withAddressBook(context, async (tx, userId) => {
    const updated = await tx
      .update(addresses)
      .set({ ...values, updatedAt: new Date() })
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ id: addresses.id })
    if (updated.length === 0) throw addressNotFound(id)
    if (wantsDefault) await makeDefault(tx, userId, id)
  })
}

/** Makes one of the user's addresses the default (again is fine). @throws AppError `not_found`. */
export async function setDefaultAddress(context: ServiceContext, id: string): Promise<void> {
  requireActor(context.actor, SIGNED_IN)
  if (!isUuid(id)) throw addressNotFound(id)
  await withAddressBook(context, async (tx, userId) => {
    const [row] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    if (!row) throw addressNotFound(id)
    await makeDefault(tx, userId, id)
  })
}

/**
 * Deletes one of the user's addresses. When it was the default, the newest remaining one becomes
 * the default, so a customer with addresses always has one.
 * @throws AppError `not_found` (also when deleted already: a second click or tab).
 */
export async function deleteAddress(context: ServiceContext, id: string): Promise<void> {
  requireActor(context.actor, SIGNED_IN)
  if (!isUuid(id)) throw addressNotFound(id)
  await withAddressBook(context, async (tx, userId) => {
    const [deleted] = await tx
      .delete(addresses)
      .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
      .returning({ isDefault: addresses.isDefault })
    if (!deleted) throw addressNotFound(id)
    if (!deleted.isDefault) return
    const [next] = await tx
      .select({ id: addresses.id })
      .from(addresses)
      .where(eq(addresses.userId, userId))
      .orderBy(desc(addresses.createdAt), desc(addresses.id))
      .limit(1)
    if (next) await makeDefault(tx, userId, next.id)
  })
}
