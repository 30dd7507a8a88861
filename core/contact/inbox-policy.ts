import type { Actor } from '#core/shared/service-context.ts'

/**
 * Who may use the staff contact inbox (/admin-dashboard/messages): admins only, for reading and
 * for marking handled alike. Moderators are refused: contact messages carry customers' names,
 * e-mail addresses and whatever they wrote (personal data), and a moderator's work (reviews)
 * needs none of it. Giving moderators the inbox later is a change here and in the admin
 * branch's middleware (app/routes/admin/layout.tsx), which admits admins only.
 * Pure, so the UI can hide what the server refuses anyway.
 */
export function canReadContactInbox(actor: Actor | null): boolean {
  return actor?.role === 'admin'
}

/** Marking a message handled, or reopening it: the same people who may read it. */
export function canHandleContactMessages(actor: Actor | null): boolean {
  return canReadContactInbox(actor)
}
