import { and, asc, desc, eq, ilike, ne, or, type SQL, sql } from 'drizzle-orm'
import { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import { AppError } from '#core/shared/errors.ts'
import { type Actor, ROLE_NAMES, type RoleName, type ServiceContext } from '#core/shared/service-context.ts'
import { can } from '#core/shared/staff-policy.ts'
import { auditLog, purchaseRequests, sessions, users } from '#db/schema/index.ts'
import { USER_SEARCH_MAX, USER_SORTS, USERS_PAGE_SIZE, type UserSort } from './user-list.ts'

/**
 * The admin panel's users (docs/decisions/024-admin-users.md): the list (search by name or e-mail,
 * accent- and case-insensitive; filter by role; three orders; keyset pages), one user's page
 * (profile, requests, what staff did to the account), and what admins do to an account: sign it
 * out everywhere, disable or re-enable it. Moderators read; admins act (core/shared/staff-policy.ts).
 * Role changes go through core/accounts/roles.ts `assignRole`.
 */

export type UserRow = {
  id: string
  name: string
  email: string
  role: RoleName
  createdAt: Date
  emailVerified: boolean
  twoStep: boolean
  disabled: boolean
}

export type UserListQuery = {
  q?: string | null
  role?: string | null
  sort?: string | null
  cursor?: string | null
}

function requireStaff(actor: Actor | null, action: 'view_users' | 'manage_users'): Actor {
  if (!actor) throw new AppError('unauthorized', 'Sign in to manage users')
  if (!can(actor, action)) {
    throw new AppError('forbidden', `${actor.role} may not ${action}`, {
      reason: action === 'manage_users' ? 'usersAdminsOnly' : undefined,
    })
  }
  return actor
}

const roleOf = (value: string | null): RoleName =>
  ROLE_NAMES.includes(value as RoleName) ? (value as RoleName) : 'user'

/** `%`, `_` and `\` taken literally in a LIKE pattern. */
function likePattern(text: string) {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`
}

// The key each order pages on: its sort value and the id.
const nameKey = sql<string>`lower(${users.name})`
const ORDER: Record<UserSort, { key: SQL | typeof users.createdAt; direction: 'asc' | 'desc' }> = {
  newest: { key: users.createdAt, direction: 'desc' },
  oldest: { key: users.createdAt, direction: 'asc' },
  name: { key: nameKey, direction: 'asc' },
}

type Cursor = { value: string; id: string }

function encodeCursor(sort: UserSort, row: UserRow): string {
  const value = sort === 'name' ? row.name.toLowerCase() : row.createdAt.toISOString()
  return Buffer.from(JSON.stringify([value, row.id])).toString('base64url')
}

function decodeCursor(sort: UserSort, cursor: string | null | undefined): Cursor | null {
  if (!cursor) return null
  const bad = () => new AppError('invalid', `Bad page cursor ${cursor.slice(0, 50)}`, { reason: 'badCursor' })
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw bad()
  }
  const [value, id] = Array.isArray(parsed) ? parsed : []
  if (typeof value !== 'string' || typeof id !== 'string' || id.length > 100 || value.length > 400)
    throw bad()
  if (sort !== 'name' && Number.isNaN(Date.parse(value))) throw bad()
  return { value, id }
}

function afterCursor(sort: UserSort, cursor: Cursor | null): SQL | undefined {
  if (!cursor) return undefined
  const { key, direction } = ORDER[sort]
  const value = sort === 'name' ? sql`${cursor.value}` : sql`${cursor.value}::timestamptz`
  return direction === 'desc'
    ? sql`(${key}, ${users.id}) < (${value}, ${cursor.id})`
    : sql`(${key}, ${users.id}) > (${value}, ${cursor.id})`
}

/** The search: part of the name, accents and case aside, or part of the e-mail. */
function searchCondition(q: string): SQL | undefined {
  const pattern = likePattern(q)
  return or(
    sql`lower(f_unaccent(${users.name})) like lower(f_unaccent(${pattern}))`,
    ilike(users.email, pattern),
  )
}

// Written out with aliases: Drizzle leaves a single table's columns unqualified in a select list,
// where "id" inside the subquery would name the subquery's own table.
const twoStep = sql<boolean>`exists (select 1 from auth_factors f where f.user_id = users.id and f.status = 'verified')`

const rowFields = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  createdAt: users.createdAt,
  emailVerified: users.emailVerified,
  twoStep,
  disabled: sql<boolean>`coalesce(${users.banned}, false)`,
}

/**
 * One page of users, in the order asked, under the search and role filter; an unknown role or
 * order is no filter and the default order (what the URL says that we cannot read, we ignore).
 * @throws AppError `unauthorized`, `forbidden` (customers); `invalid` (a search over 200
 *   characters, a cursor that is not ours).
 */
export async function listUsers(
  { db, actor }: ServiceContext,
  query: UserListQuery,
): Promise<{ rows: UserRow[]; nextCursor: string | null; q: string; role: RoleName | null; sort: UserSort }> {
  requireStaff(actor, 'view_users')
  const q = (query.q ?? '').trim()
  if (q.length > USER_SEARCH_MAX) {
    throw new AppError('invalid', 'User search too long', { reason: 'userSearchTooLong' })
  }
  const role = ROLE_NAMES.includes(query.role as RoleName) ? (query.role as RoleName) : null
  const sort: UserSort = USER_SORTS.includes(query.sort as UserSort) ? (query.sort as UserSort) : 'newest'
  const cursor = decodeCursor(sort, query.cursor)
  const { key, direction } = ORDER[sort]
  const by = direction === 'desc' ? desc : asc
  const found = await db
    .select(rowFields)
    .from(users)
    .where(
      and(
        q ? searchCondition(q) : undefined,
        // "user" is also what a missing role means.
        role === 'user'
          ? or(eq(users.role, 'user'), sql`${users.role} is null`)
          : role
            ? eq(users.role, role)
            : undefined,
        afterCursor(sort, cursor),
      ),
    )
    .orderBy(by(key), by(users.id))
    .limit(USERS_PAGE_SIZE + 1)
  const rows = found.slice(0, USERS_PAGE_SIZE).map((row) => ({ ...row, role: roleOf(row.role) }))
  const last = rows.at(-1)
  return {
    rows,
    nextCursor: found.length > USERS_PAGE_SIZE && last ? encodeCursor(sort, last) : null,
    q,
    role,
    sort,
  }
}

export type UserHistoryEntry = {
  id: number
  kind: string
  actorEmail: string | null
  before: Record<string, unknown>
  after: Record<string, unknown>
  createdAt: Date
}

export type UserDetail = UserRow & {
  language: string | null
  phone: string | null
  disabledReason: string | null
  sessions: number
  requests: { id: string; number: string; status: string; submittedAt: Date }[]
  requestCount: number
  history: UserHistoryEntry[]
}

const UserIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/)

function userNotFound(id: string) {
  return new AppError('not_found', `User ${id.slice(0, 100)} not found`, { reason: 'userNotFound' })
}

/**
 * One user for staff: the profile, their newest 20 requests (and how many in all), open sessions,
 * and what staff did to the account (roles, disabling, sign-outs), newest first.
 * @throws AppError `unauthorized`, `forbidden`, `not_found`.
 */
export async function getUserDetail({ db, actor }: ServiceContext, id: string): Promise<UserDetail> {
  requireStaff(actor, 'view_users')
  const parsed = UserIdSchema.safeParse(id)
  if (!parsed.success) throw userNotFound(id)
  const [row] = await db
    .select({
      ...rowFields,
      language: users.language,
      phone: users.phone,
      disabledReason: users.banReason,
      sessions: sql<number>`(select count(*)::int from sessions s where s.user_id = users.id and s.expires_at > now())`,
      requestCount: sql<number>`(select count(*)::int from purchase_requests r where r.user_id = users.id)`,
    })
    .from(users)
    .where(eq(users.id, parsed.data))
  if (!row) throw userNotFound(id)
  const [requests, history] = await Promise.all([
    db
      .select({
        id: purchaseRequests.id,
        number: purchaseRequests.number,
        status: purchaseRequests.status,
        submittedAt: purchaseRequests.submittedAt,
      })
      .from(purchaseRequests)
      .where(eq(purchaseRequests.userId, row.id))
      .orderBy(desc(purchaseRequests.submittedAt), desc(purchaseRequests.id))
      .limit(20),
    db
      .select({
        id: auditLog.id,
        kind: auditLog.kind,
        actorEmail: auditLog.actorEmail,
        before: auditLog.before,
        after: auditLog.after,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .where(and(eq(auditLog.subjectType, 'user'), eq(auditLog.subjectId, row.id)))
      .orderBy(desc(auditLog.id))
      .limit(50),
  ])
  return {
    ...row,
    role: roleOf(row.role),
    requests,
    history: history.map((entry) => ({
      ...entry,
      before: (entry.before ?? {}) as Record<string, unknown>,
      after: (entry.after ?? {}) as Record<string, unknown>,
    })),
  }
}

export const DisableUserSchema = z.object({
  userId: UserIdSchema,
  reason: z
    .string({ error: 'reasonRequired' })
    .trim()
    .min(1, { error: 'reasonRequired', abort: true })
    .max(500, { error: 'reasonTooLong', abort: true })
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
    .refine((value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value), {
      error: 'invalidCharacters',
    }),
})
export const UserIdInputSchema = z.object({ userId: UserIdSchema })

function refuseSelf(actor: Actor, userId: string) {
  if (actor.id === userId) {
    throw new AppError('conflict', `Staff ${actor.id} acting on their own account`, {
      reason: 'notOnYourself',
    })
  }
}

/**
 * An admin disables an account: its sessions end at once and it cannot sign in again (better-auth's
 * admin plugin refuses a session to a banned user) until re-enabled; the reason is kept for staff.
 * Not yourself, not the last admin who can still sign in. Already disabled: nothing changes.
 * @throws AppError `unauthorized`, `forbidden` (`usersAdminsOnly`), `not_found`, `invalid`,
 *   `conflict` (`notOnYourself`, `lastAdminDisable`).
 */
export async function disableUser(
  { db, actor }: ServiceContext,
  input: { userId?: unknown; reason?: unknown },
): Promise<{ changed: boolean; sessionsEnded: number }> {
  const admin = requireStaff(actor, 'manage_users')
  const parsed = DisableUserSchema.safeParse(input)
  if (!parsed.success) {
    if (parsed.error.issues.some((issue) => issue.path[0] === 'userId'))
      throw userNotFound(String(input.userId))
    throw new AppError('invalid', 'Disable input refused', {
      reason: 'userActionInvalid',
      fieldErrors: { reason: [parsed.error.issues[0]?.message ?? 'reasonRequired'] },
    })
  }
  const { userId, reason } = parsed.data
  refuseSelf(admin, userId)
  return db.transaction(async (tx) => {
    // The roles' lock (core/accounts/roles.ts): two admins cannot disable each other at once.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727002)`)
    const [target] = await tx
      .select({ id: users.id, role: users.role, banned: users.banned })
      .from(users)
      .where(eq(users.id, userId))
      .for('update')
    if (!target) throw userNotFound(userId)
    if (target.banned) return { changed: false, sessionsEnded: 0 }
    if (target.role === 'admin') {
      const [others] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(
          and(
            eq(users.role, 'admin'),
            ne(users.id, target.id),
            sql`coalesce(${users.banned}, false) = false`,
          ),
        )
      if ((others?.count ?? 0) === 0) {
        throw new AppError('conflict', `User ${target.id} is the last admin`, { reason: 'lastAdminDisable' })
      }
    }
    await tx
      .update(users)
      .set({ banned: true, banReason: reason, banExpires: null })
      .where(eq(users.id, target.id))
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, target.id))
      .returning({ id: sessions.id })
    await recordAudit(tx, {
      actorId: admin.id,
      kind: 'user.disable',
      subject: { type: 'user', id: target.id },
      before: { disabled: false },
      after: { disabled: true, reason, sessionsEnded: ended.length },
    })
    return { changed: true, sessionsEnded: ended.length }
  })
}

/**
 * An admin re-enables a disabled account: it may sign in again. Already enabled: nothing changes.
 * @throws AppError as disableUser.
 */
export async function enableUser(
  { db, actor }: ServiceContext,
  input: { userId?: unknown },
): Promise<{ changed: boolean }> {
  const admin = requireStaff(actor, 'manage_users')
  const parsed = UserIdInputSchema.safeParse(input)
  if (!parsed.success) throw userNotFound(String(input.userId))
  refuseSelf(admin, parsed.data.userId)
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ id: users.id, banned: users.banned, banReason: users.banReason })
      .from(users)
      .where(eq(users.id, parsed.data.userId))
      .for('update')
    if (!target) throw userNotFound(parsed.data.userId)
    if (!target.banned) return { changed: false }
    await tx
      .update(users)
      .set({ banned: false, banReason: null, banExpires: null })
      .where(eq(users.id, target.id))
    await recordAudit(tx, {
      actorId: admin.id,
      kind: 'user.enable',
      subject: { type: 'user', id: target.id },
      before: { disabled: true, reason: target.banReason },
      after: { disabled: false },
    })
    return { changed: true }
  })
}

/**
 * An admin signs a user out on every device (a lost phone, a shared computer): every session
 * ends; the password stays. Not yourself (your own account page does that).
 * @throws AppError `unauthorized`, `forbidden`, `not_found`, `conflict` (`notOnYourself`).
 */
export async function signOutEverywhere(
  { db, actor }: ServiceContext,
  input: { userId?: unknown },
): Promise<{ sessionsEnded: number }> {
  const admin = requireStaff(actor, 'manage_users')
  const parsed = UserIdInputSchema.safeParse(input)
  if (!parsed.success) throw userNotFound(String(input.userId))
  refuseSelf(admin, parsed.data.userId)
  return db.transaction(async (tx) => {
    const [target] = await tx.select({ id: users.id }).from(users).where(eq(users.id, parsed.data.userId))
    if (!target) throw userNotFound(parsed.data.userId)
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, target.id))
      .returning({ id: sessions.id })
    await recordAudit(tx, {
      actorId: admin.id,
      kind: 'user.sign_out',
      subject: { type: 'user', id: target.id },
      before: {},
      after: { sessionsEnded: ended.length },
    })
    return { sessionsEnded: ended.length }
  })
}
