import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { z } from 'zod'
import type { Language } from '#core/preferences/preferences.ts'
import { AppError, rateLimited } from '#core/shared/errors.ts'
import { consumeRateLimit } from '#core/shared/rate-limit.ts'
import { requireActor, type ServiceContext } from '#core/shared/service-context.ts'
import { whatsappContacts } from '#db/schema/index.ts'
import { type WhatsAppClient, WhatsAppSendError } from './client.ts'
import { buildCodeTemplate, WHATSAPP_CATEGORY_NAMES, type WhatsAppCategory } from './templates.ts'

/** The opt-in's limits: a code lives 10 minutes and takes 5 tries; 3 codes an hour per account. */
export const WHATSAPP_LIMITS = {
  codeMinutes: 10,
  attempts: 5,
  codesPerHour: 3,
  /** Codes one number receives an hour, whatever the accounts asking (nobody floods a stranger). */
  codesPerNumberPerHour: 5,
} as const

/**
 * A WhatsApp number as typed: spaces, dashes, dots and brackets are dropped; it must then be
 * E.164 with its plus and country code (+52 55 1234 5678 → +525512345678).
 */
export const WhatsAppPhoneSchema = z
  .string({ error: 'phoneRequired' })
  .max(40, { error: 'phoneInvalid' })
  .transform((value) => value.replace(/[\s().-]/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: 'phoneRequired' })
      .regex(/^\+[1-9]\d{7,14}$/, { error: 'phoneInvalid' }),
  )

export const WhatsAppStartSchema = z.object({ phone: WhatsAppPhoneSchema })
export const WhatsAppCodeSchema = z.object({
  code: z
    .string({ error: 'codeRequired' })
    .trim()
    .regex(/^\d{6}$/, { error: 'codeInvalid' }),
})
export const WhatsAppPreferencesSchema = z.object({
  categories: z
    .array(z.enum(WHATSAPP_CATEGORY_NAMES, { error: 'categoryInvalid' }))
    .max(20)
    .default([]),
})

export type WhatsAppState = {
  status: 'pending' | 'active' | 'stopped'
  phone: string
  categories: WhatsAppCategory[]
  /** Pending: when the code sent expires. */
  codeExpiresAt: Date | null
}

/** The customer's WhatsApp number and updates, or null when they never gave one. */
export async function getWhatsAppState(context: ServiceContext): Promise<WhatsAppState | null> {
  const actor = requireActor(context.actor, 'Sign in to manage WhatsApp updates')
  const [row] = await context.db.select().from(whatsappContacts).where(eq(whatsappContacts.userId, actor.id))
  if (!row) return null
  return {
    status: row.status as WhatsAppState['status'],
    phone: row.phone,
    categories: row.categories.filter((name): name is WhatsAppCategory =>
      (WHATSAPP_CATEGORY_NAMES as string[]).includes(name),
    ),
    codeExpiresAt: row.status === 'pending' ? row.codeExpiresAt : null,
  }
}

const invalid = (reason: string, field: string) =>
  new AppError('invalid', `WhatsApp opt-in refused: ${reason}`, {
    reason,
    fieldErrors: { [field]: [reason] },
  })

function hashCode(secret: string, userId: string, phone: string, code: string) {
  return createHmac('sha256', secret).update(`whatsapp:${userId}:${phone}:${code}`).digest('hex')
}

/**
 * Sends a code to the number (the authentication template) and keeps its HMAC: the number waits
 * as `pending` (updates stop until it is confirmed). 3 codes an hour per account (429).
 */
export async function startWhatsAppOptIn(
  context: ServiceContext,
  client: WhatsAppClient,
  input: { phone: string; language: Language },
  now = new Date(),
): Promise<void> {
  const actor = requireActor(context.actor, 'Sign in to manage WhatsApp updates')
  const parsed = WhatsAppStartSchema.safeParse({ phone: input.phone })
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'phoneInvalid', 'phone')
  const { phone } = parsed.data
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  const expiresAt = new Date(now.getTime() + WHATSAPP_LIMITS.codeMinutes * 60_000)
  await context.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ codesSent: whatsappContacts.codesSent, windowStart: whatsappContacts.codesWindowStart })
      .from(whatsappContacts)
      .where(eq(whatsappContacts.userId, actor.id))
      .for('update')
    const windowOpen = row?.windowStart && now.getTime() - row.windowStart.getTime() < 3600_000
    const sent = windowOpen ? (row?.codesSent ?? 0) : 0
    if (windowOpen && sent >= WHATSAPP_LIMITS.codesPerHour && row?.windowStart) {
      const retryAfter = Math.ceil((row.windowStart.getTime() + 3600_000 - now.getTime()) / 1000)
      throw rateLimited('Too many WhatsApp codes', retryAfter, 'whatsappTooManyCodes')
    }
    // Per number too (its HMAC, not the number): counted only when a code is really issued.
    const numberKey = `whatsapp-code:${createHmac('sha256', client.config.appSecret).update(phone).digest('base64url').slice(0, 32)}`
    const perNumber = await consumeRateLimit(
      tx,
      numberKey,
      { limit: WHATSAPP_LIMITS.codesPerNumberPerHour, windowSeconds: 3600 },
      now,
    )
    if (!perNumber.allowed) {
      throw rateLimited(
        'Too many WhatsApp codes to one number',
        perNumber.retryAfterSeconds,
        'whatsappTooManyCodes',
      )
    }
    const values = {
      phone,
      status: 'pending',
      codeHash: hashCode(client.config.appSecret, actor.id, phone, code),
      codeExpiresAt: expiresAt,
      codeAttempts: 0,
      codesSent: sent + 1,
      codesWindowStart: windowOpen ? (row?.windowStart ?? now) : now,
      updatedAt: now,
    }
    await tx
      .insert(whatsappContacts)
      .values({ userId: actor.id, ...values })
      .onConflictDoUpdate({ target: whatsappContacts.userId, set: values })
  })
  try {
    await client.sendTemplate({ to: phone, ...buildCodeTemplate(code, input.language) })
  } catch (error) {
    if (error instanceof WhatsAppSendError && error.kind === 'permanent')
      throw invalid('notOnWhatsApp', 'phone')
    throw new AppError('upstream_failed', 'WhatsApp did not take the code message', {
      reason: 'whatsappDown',
    })
  }
}

/**
 * Checks the code: right, the number is confirmed and the updates start (all of them the first
 * time; the customer unticks what they do not want). Wrong: one try used; expired or out of
 * tries: a new code is needed.
 */
export async function confirmWhatsAppCode(
  context: ServiceContext,
  client: WhatsAppClient,
  input: { code: string },
  now = new Date(),
): Promise<void> {
  const actor = requireActor(context.actor, 'Sign in to manage WhatsApp updates')
  const parsed = WhatsAppCodeSchema.safeParse(input)
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'codeInvalid', 'code')
  const { code } = parsed.data
  // The try is counted in its own transaction, so a wrong code's count survives its refusal.
  const verdict = await context.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(whatsappContacts)
      .where(eq(whatsappContacts.userId, actor.id))
      .for('update')
    if (row?.status !== 'pending' || !row.codeHash || !row.codeExpiresAt) return 'expired' as const
    if (row.codeExpiresAt.getTime() <= now.getTime() || row.codeAttempts >= WHATSAPP_LIMITS.attempts)
      return 'expired' as const
    const expected = Buffer.from(row.codeHash, 'hex')
    const given = Buffer.from(hashCode(client.config.appSecret, actor.id, row.phone, code), 'hex')
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      await tx
        .update(whatsappContacts)
        .set({ codeAttempts: sql`${whatsappContacts.codeAttempts} + 1` })
        .where(eq(whatsappContacts.userId, actor.id))
      return row.codeAttempts + 1 >= WHATSAPP_LIMITS.attempts ? ('expired' as const) : ('wrong' as const)
    }
    await tx
      .update(whatsappContacts)
      .set({
        status: 'active',
        codeHash: null,
        codeExpiresAt: null,
        codeAttempts: 0,
        verifiedAt: now,
        stoppedAt: null,
        updatedAt: now,
        categories:
          row.verifiedAt && row.categories.length > 0 ? row.categories : [...WHATSAPP_CATEGORY_NAMES],
      })
      .where(eq(whatsappContacts.userId, actor.id))
    return 'ok' as const
  })
  if (verdict === 'wrong') throw invalid('codeWrong', 'code')
  if (verdict === 'expired') throw invalid('codeExpired', 'code')
}

/** Which updates go to WhatsApp; only for a confirmed number. */
export async function saveWhatsAppPreferences(
  context: ServiceContext,
  input: { categories: WhatsAppCategory[] },
): Promise<void> {
  const actor = requireActor(context.actor, 'Sign in to manage WhatsApp updates')
  const parsed = WhatsAppPreferencesSchema.safeParse(input)
  if (!parsed.success) throw invalid('categoryInvalid', 'categories')
  const { categories } = parsed.data
  const updated = await context.db
    .update(whatsappContacts)
    .set({ categories: [...new Set(categories)], updatedAt: sql`now()` })
    .where(sql`${whatsappContacts.userId} = ${actor.id} and ${whatsappContacts.status} = 'active'`)
    .returning({ userId: whatsappContacts.userId })
  if (updated.length === 0)
    throw new AppError('conflict', 'No confirmed WhatsApp number', { reason: 'whatsappNotActive' })
}

/** Stops every WhatsApp update now; messages already queued are not sent (the e-mail goes). */
export async function stopWhatsApp(context: ServiceContext): Promise<void> {
  const actor = requireActor(context.actor, 'Sign in to manage WhatsApp updates')
  await context.db
    .update(whatsappContacts)
    .set({ status: 'stopped', stoppedAt: sql`now()`, codeHash: null, updatedAt: sql`now()` })
    .where(eq(whatsappContacts.userId, actor.id))
}
