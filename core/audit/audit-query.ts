import { z } from 'zod'
import { AUDIT_KINDS } from './audit-kinds.ts'
import type { AuditQuery } from './audit-log.ts'

/**
 * The audit page's query string (`?actor=ana@example.com&kind=settings.update&after=120`), as
 * anyone can type it: anything unreadable is "no filter" (or the first page), never an error.
 */
export const AuditQuerySchema = z.object({
  actor: z
    .string()
    .optional()
    .transform((value) => {
      const email = value?.trim() ?? ''
      return email.length > 0 && email.length <= 254 ? email : null
    }),
  kind: z
    .string()
    .optional()
    .transform((value) => AUDIT_KINDS.find((kind) => kind === value) ?? null),
  after: z
    .string()
    .optional()
    .transform((value) => {
      if (!value || !/^\d{1,15}$/.test(value)) return null
      const id = Number(value)
      return id > 0 ? id : null
    }),
}) satisfies z.ZodType<AuditQuery, unknown>
