import { and, eq, ne, sql } from 'drizzle-orm'
import { z } from 'zod'
import { recordAudit } from '#core/audit/audit-log.ts'
import { AppError } from '#core/shared/errors.ts'
import { type Actor, ROLE_NAMES, type ServiceContext } from '#core/shared/service-context.ts'
import { roleAssignments, users } from '#db/schema/index.ts'

export { ROLE_NAMES, type RoleName } from '#core/shared/service-context.ts'

export const AssignRoleSchema = z.object({
  // User ids are ours (letters, digits, - and _): anything else cannot name a user.
  userId: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[\w-]+$/),
  role: z.enum(ROLE_NAMES),
})
export type AssignRoleInput = z.output<typeof AssignRoleSchema>

/** Only admins assign roles. Pure, so the UI can hide what the server refuses anyway. */
export function canAssignRoles(actor: Actor | null): boolean {
  return actor?.role === 'admin'
}

/**
 * Sets a user's role and records who did it (role_assignments, and the audit log with old → new),
 * in one transaction. The user's open sessions see the new role on their next request (sessions
 * read the user row each time).
 * @throws AppError `forbidden` (not an admin), `not_found` (no such user), `conflict` (it would
 *   leave the shop without any admin).
 */
export async function assignRole({ db, actor }: ServiceContext, input: AssignRoleInput) {
  if (!actor || !canAssignRoles(actor))
    throw new AppError('forbidden', `User ${actor?.id ?? 'anonymous'} cannot assign roles`, {
      reason: 'onlyAdminsAssignRoles',
    })
  return db.transaction(async (tx) => {
    // Serialises concurrent role changes, so two admins cannot demote each other at once.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(727002)`)
    const [target] = await tx
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.id, input.userId))
    if (!target)
      throw new AppError('not_found', `User ${input.userId} does not exist`, { reason: 'userNotFound' })
    if (target.role === 'admin' && input.role !== 'admin') {
      const [others] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(and(eq(users.role, 'admin'), ne(users.id, target.id)))
      if ((others?.count ?? 0) === 0)
        throw new AppError('conflict', `User ${target.id} is the last admin`, { reason: 'lastAdmin' })
    }
    await tx.update(users).set({ role: input.role }).where(eq(users.id, target.id))
    await tx.insert(roleAssignments).values({ userId: target.id, role: input.role, assignedBy: actor.id })
    await recordAudit(tx, {
      actorId: actor.id,
      kind: 'role.assign',
      subject: { type: 'user', id: target.id },
      before: { role: target.role },
      after: { role: input.role },
    })
    return { userId: target.id, role: input.role }
  })
}
