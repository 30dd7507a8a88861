import { and, asc, count, eq, isNull } from 'drizzle-orm'
import type { Database } from '#db/client.ts'
import {
  accounts,
  authBackupCodes,
  authFactors,
  contactMessages,
  roleAssignments,
  sessions,
  users,
} from '#db/schema/index.ts'

/**
 * Everything we keep about one account, for "download my data" (GDPR art. 15 and 20): profile,
 * sign-in methods (never password hashes or tokens), second factors (never their secrets),
 * sessions, role history and the messages
 * sent through the contact form with the account's e-mail.
 */
export async function exportAccountData(db: Database, userId: string) {
  const [profile] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      emailVerified: users.emailVerified,
      language: users.language,
      role: users.role,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId))
  if (!profile) return null
  const [signInMethods, secondFactors, backupCodes, activeSessions, roleHistory, messages] =
    await Promise.all([
      db
        .select({ provider: accounts.providerId, createdAt: accounts.createdAt })
        .from(accounts)
        .where(eq(accounts.userId, userId)),
      db
        .select({
          type: authFactors.type,
          friendlyName: authFactors.friendlyName,
          status: authFactors.status,
          phone: authFactors.phone,
          createdAt: authFactors.createdAt,
          verifiedAt: authFactors.verifiedAt,
          lastUsedAt: authFactors.lastUsedAt,
        })
        .from(authFactors)
        .where(eq(authFactors.userId, userId))
        .orderBy(asc(authFactors.createdAt)),
      db
        .select({ unused: count() })
        .from(authBackupCodes)
        .where(and(eq(authBackupCodes.userId, userId), isNull(authBackupCodes.usedAt))),
      db
        .select({
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
          ipAddress: sessions.ipAddress,
          assuranceLevel: sessions.aal,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(asc(sessions.createdAt)),
      db
        .select({ role: roleAssignments.role, assignedAt: roleAssignments.assignedAt })
        .from(roleAssignments)
        .where(eq(roleAssignments.userId, userId)),
      db
        .select({
          subject: contactMessages.subject,
          message: contactMessages.message,
          createdAt: contactMessages.createdAt,
        })
        .from(contactMessages)
        .where(eq(contactMessages.email, profile.email)),
    ])
  return {
    exportedAt: new Date().toISOString(),
    profile,
    signInMethods,
    secondFactors,
    unusedBackupCodes: backupCodes[0]?.unused ?? 0,
    sessions: activeSessions,
    roleHistory,
    contactMessages: messages,
  }
}
