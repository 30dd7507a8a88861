import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm'
import type { Actor, ServiceContext } from '#core/shared/service-context.ts'
import { can, requireStaffAction } from '#core/shared/staff-policy.ts'
import type { Executor } from '#db/client.ts'
import { auditLog, users } from '#db/schema/index.ts'
import type { AuditField, AuditKind, PATH_AUDIT_KINDS } from './audit-kinds.ts'

/**
 * The audit log: one append-only record per staff action that changes how the business runs,
 * written with `recordAudit` inside the transaction of the change itself (so a change and its
 * record commit or roll back together), read on /admin-dashboard/audit by admins only.
 * docs/decisions/023-admin-settings-rates-audit.md.
 *
 * A new kind of action adds its name to AUDIT_KINDS and a label in the admin locale files
 * (`audit.kinds`); a new field, to AUDIT_FIELDS with its label (`audit.fields`). A test checks
 * that every kind, field and value has its words in both languages (ADR 038).
 */
export {
  AUDIT_FIELDS,
  AUDIT_KINDS,
  type AuditField,
  type AuditFieldType,
  type AuditKind,
  auditStatusKind,
  PATH_AUDIT_KINDS,
} from './audit-kinds.ts'

/** JSON values as stored in `before` and `after`: flat paths ("yenRates.USD") to values. */
export type AuditValues = Record<string, unknown>

type FieldValues = { [field in AuditField]?: unknown }
type PathAuditKind = (typeof PATH_AUDIT_KINDS)[number]

export type AuditEntry = {
  /** Who did it; null for a script or a job. */
  actorId: string | null
  subject: { type: string; id?: string | null }
} & (
  | {
      kind: PathAuditKind
      /** The old values of what changed, and the new ones (a path absent on one side: added or removed). */
      before: AuditValues
      after: AuditValues
    }
  | { kind: Exclude<AuditKind, PathAuditKind>; before: FieldValues; after: FieldValues }
)

/**
 * Appends one record. Call it with the transaction that makes the change. The actor's e-mail is
 * copied from their account now, so the record still says who it was if the account goes.
 */
export async function recordAudit(tx: Executor, entry: AuditEntry): Promise<void> {
  const actorEmail = entry.actorId
    ? sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${entry.actorId})`
    : null
  await tx.insert(auditLog).values({
    actorId: entry.actorId,
    actorEmail,
    kind: entry.kind,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id ?? null,
    before: entry.before,
    after: entry.after,
  })
}

/**
 * What changed between two JSON values, as flat paths: nested objects are walked ("a.b.c"),
 * anything else (numbers, strings, arrays) is compared whole. Only paths whose values differ are
 * kept, on both sides; a path missing on one side is absent from that side.
 */
export function changedPaths(before: unknown, after: unknown): { before: AuditValues; after: AuditValues } {
  const old = flatten(before)
  const next = flatten(after)
  const changed = { before: {} as AuditValues, after: {} as AuditValues }
  for (const path of new Set([...Object.keys(old), ...Object.keys(next)])) {
    if (JSON.stringify(old[path]) === JSON.stringify(next[path])) continue
    if (path in old) changed.before[path] = old[path]
    if (path in next) changed.after[path] = next[path]
  }
  return changed
}

function flatten(value: unknown, prefix = '', into: AuditValues = {}): AuditValues {
  if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into)
  } else if (prefix) {
    into[prefix] = value
  }
  return into
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Only admins read the audit log (core/shared/staff-policy.ts). */
export function canReadAuditLog(actor: Actor | null): boolean {
  return can(actor, 'read_audit_log')
}

export const AUDIT_PAGE_SIZE = 30

export type AuditQuery = {
  /** The e-mail of the person who acted (as recorded), or null for everyone. */
  actor: string | null
  kind: AuditKind | null
  /** The id of the last record of the previous page (older records have smaller ids). */
  after: number | null
}

export type AuditRecord = {
  id: number
  actorEmail: string | null
  kind: string
  subjectType: string
  subjectId: string | null
  /** For a record about a user: their e-mail now (null when the account is gone). */
  subjectEmail: string | null
  before: AuditValues
  after: AuditValues
  createdAt: Date
}

/**
 * One page of the log, newest first (keyset on the id), filtered by person and kind.
 * @throws AppError `forbidden` for anyone but an admin.
 */
export async function listAuditLog(
  { db, actor }: ServiceContext,
  query: AuditQuery,
): Promise<{ records: AuditRecord[]; nextCursor: number | null }> {
  requireStaffAction(actor, 'read_audit_log')
  const rows = await db
    .select({
      id: auditLog.id,
      actorEmail: auditLog.actorEmail,
      kind: auditLog.kind,
      subjectType: auditLog.subjectType,
      subjectId: auditLog.subjectId,
      subjectEmail: users.email,
      before: auditLog.before,
      after: auditLog.after,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .leftJoin(users, and(eq(auditLog.subjectType, 'user'), eq(users.id, auditLog.subjectId)))
    .where(
      and(
        query.actor === null ? undefined : eq(auditLog.actorEmail, query.actor),
        query.kind === null ? undefined : eq(auditLog.kind, query.kind),
        query.after === null ? undefined : lt(auditLog.id, query.after),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1)
  const page = rows.slice(0, AUDIT_PAGE_SIZE)
  return {
    records: page.map((row) => ({
      ...row,
      before: asValues(row.before),
      after: asValues(row.after),
    })),
    nextCursor: rows.length > AUDIT_PAGE_SIZE ? (page.at(-1)?.id ?? null) : null,
  }
}

/** The people who appear in the log (their e-mails as recorded), for the filter. */
export async function listAuditActors({ db, actor }: ServiceContext): Promise<string[]> {
  requireStaffAction(actor, 'read_audit_log')
  const rows = await db
    .selectDistinct({ email: auditLog.actorEmail })
    .from(auditLog)
    .where(isNotNull(auditLog.actorEmail))
    .orderBy(auditLog.actorEmail)
    .limit(500)
  return rows.flatMap((row) => (row.email ? [row.email] : []))
}

function asValues(value: unknown): AuditValues {
  return isPlainObject(value) ? value : {}
}
