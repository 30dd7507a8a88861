import { z } from 'zod'
import { UUID_SOURCE } from '#core/shared/ids.ts'

/** The inbox's filters: open (not yet handled) or handled. Spam is shown only when asked. */
export const INBOX_FILTERS = ['open', 'handled'] as const
export type InboxFilter = (typeof INBOX_FILTERS)[number]

/**
 * A page cursor: the last message of the previous page, its received time in UTC to the
 * microsecond (as PostgreSQL stores it, so no two instants round to one) and its id.
 */
const CURSOR = new RegExp(`^(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z)_(${UUID_SOURCE})$`)

/** The list's query string (`?status=handled&spam=1&after=…`); anything unreadable is the default. */
export const InboxQuerySchema = z.object({
  status: z.enum(INBOX_FILTERS).catch('open').default('open'),
  spam: z
    .string()
    .optional()
    .transform((value) => value === '1'),
  after: z
    .string()
    .optional()
    .transform((value) => {
      const match = value ? CURSOR.exec(value) : null
      const receivedAt = match?.[1]
      // A well-formed but impossible date (month 13, 30 February) is no cursor either.
      if (!match || !receivedAt) return null
      const parsed = new Date(receivedAt)
      if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 19) !== receivedAt.slice(0, 19))
        return null
      return { receivedAt, id: match[2] as string }
    }),
})
export type InboxQuery = z.output<typeof InboxQuerySchema>

/** Mark handled or reopen: the form on a message's page (Conform shares it with the action). */
export const HandleMessageSchema = z.object({
  intent: z.enum(['handle', 'reopen'], { error: 'intent' }),
})
export type HandleMessageInput = z.output<typeof HandleMessageSchema>

/** A message id from the URL: anything that is not a uuid names no message. */
export const MessageIdSchema = z.uuid()
