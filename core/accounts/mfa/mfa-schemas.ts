import { z } from 'zod'

// Messages are i18n keys under `mfa.errors`.
export const FRIENDLY_NAME_MAX = 60

const controlCharacters = /[\p{Cc}\p{Cf}]/u

export const FriendlyNameSchema = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(FRIENDLY_NAME_MAX, { error: 'nameTooLong', abort: true })
  .refine((value) => !controlCharacters.test(value), { error: 'nameInvalid' })

/**
 * A phone number in international form: spaces, dots, dashes and brackets are dropped and a
 * leading 00 becomes +, then E.164 (a + and 8 to 15 digits, the first not 0).
 */
export const PhoneSchema = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(32, { error: 'phoneInvalid', abort: true })
  .transform((value) => value.replace(/[\s().-]/g, '').replace(/^00/, '+'))
  .pipe(z.string().regex(/^\+[1-9]\d{7,14}$/, { error: 'phoneInvalid' }))

/** Six digits; spaces people type between groups are ignored. */
export const CodeSchema = z
  .string({ error: 'required' })
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: 'required', abort: true })
      .regex(/^\d{6}$/, { error: 'codeFormat' }),
  )

/** A recovery code as printed (xxxxx-xxxxx); case, spaces and the dash are forgiven. */
export const BackupCodeSchema = z
  .string({ error: 'required' })
  .transform((value) => value.replace(/[\s-]/g, '').toLowerCase())
  .pipe(
    z
      .string()
      .min(1, { error: 'required', abort: true })
      .regex(/^[a-z2-9]{10}$/, { error: 'backupCodeFormat' }),
  )

export const EnrollFactorSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('totp'), friendlyName: FriendlyNameSchema }),
  z.object({ type: z.literal('phone'), friendlyName: FriendlyNameSchema, phone: PhoneSchema }),
])

export type EnrollFactorInput = z.output<typeof EnrollFactorSchema>

export const VerifyFactorSchema = z.object({ challengeId: z.uuid({ error: 'required' }), code: CodeSchema })

export const FactorIdSchema = z.uuid()
