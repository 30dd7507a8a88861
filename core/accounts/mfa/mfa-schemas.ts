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

export const FactorIdSchema = z.uuid({ error: 'required' })

const ChallengeIdSchema = z.uuid({ error: 'required' })
/** A form's optional short text (the factor's name echoed back for the confirmation message). */
const NameEcho = z.string().max(FRIENDLY_NAME_MAX).optional()
const PasswordEcho = z.string().max(200).optional()

/** The second step of a sign-in (/auth/mfa): a factor's code, a backup code, or "text me a code". */
export const MfaChallengeFormSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('code'),
    factorId: FactorIdSchema,
    code: CodeSchema,
    challengeId: ChallengeIdSchema.optional(),
  }),
  z.object({ intent: z.literal('backup'), code: BackupCodeSchema }),
  z.object({ intent: z.literal('send-sms'), factorId: FactorIdSchema }),
])

/** Every form of the security page (/account/security), told apart by the button pressed. */
export const SecurityFormSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('add-totp'), friendlyName: FriendlyNameSchema }),
  z.object({ intent: z.literal('add-phone'), friendlyName: FriendlyNameSchema, phone: PhoneSchema }),
  z.object({ intent: z.literal('send-sms'), factorId: FactorIdSchema }),
  z.object({
    intent: z.literal('confirm'),
    factorId: FactorIdSchema,
    name: NameEcho,
    code: CodeSchema,
    challengeId: ChallengeIdSchema.optional(),
  }),
  // A verified factor's removal needs the password; whether it is right is the server's to say.
  z.object({ intent: z.literal('remove'), factorId: FactorIdSchema, name: NameEcho, password: PasswordEcho }),
  z.object({ intent: z.literal('regenerate'), password: z.string({ error: 'required' }).max(200) }),
])
