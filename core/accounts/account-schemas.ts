import { z } from 'zod'

export const PASSWORD_LIMITS = { min: 8, max: 128 } as const
const NAME_MAX = 100

// Messages are i18n keys under `auth.errors`.
const email = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(254, { error: 'tooLong', abort: true })
  .pipe(z.email({ error: 'email' }))

const password = z
  .string({ error: 'required' })
  .min(1, { error: 'required', abort: true })
  .min(PASSWORD_LIMITS.min, { error: 'passwordTooShort' })
  .max(PASSWORD_LIMITS.max, { error: 'passwordTooLong' })

// The mismatch is reported even when another field has a problem too (e.g. a short password).
function bothPasswordsGiven(payload: { value: unknown }): boolean {
  const value = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined
  return (
    typeof value?.password === 'string' &&
    typeof value.confirmPassword === 'string' &&
    value.confirmPassword !== ''
  )
}

export const SignInSchema = z.object({
  email,
  password: z.string({ error: 'required' }).min(1, { error: 'required' }),
})

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/

/** A person's name as we store it: 1 to 100 characters, none of them control characters. */
export const FullNameSchema = z
  .string({ error: 'required' })
  .trim()
  .min(1, { error: 'required', abort: true })
  .max(NAME_MAX, { error: 'tooLong', abort: true })
  .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })

/**
 * What the auth API itself may be sent about a person (sign-up, update-user), whoever calls it:
 * our forms send a name and a language; nothing sends a picture.
 */
export const AccountProfileInputSchema = z.object({
  name: FullNameSchema.optional(),
  language: z.enum(['es', 'en'], { error: 'language' }).optional(),
  image: z.null({ error: 'image' }).optional(),
})

export const SignUpSchema = z
  .object({
    fullName: FullNameSchema,
    email,
    password,
    confirmPassword: z.string({ error: 'required' }).min(1, { error: 'required' }),
  })
  // The spec's form stopped silently on a mismatch; we say why, next to the field.
  .refine((value) => value.password === value.confirmPassword, {
    error: 'passwordsDontMatch',
    path: ['confirmPassword'],
    when: bothPasswordsGiven,
  })

export type SignUpInput = z.output<typeof SignUpSchema>

export const ForgotPasswordSchema = z.object({ email })

export const ResetPasswordSchema = z
  .object({
    token: z.string().min(1).max(500),
    password,
    confirmPassword: z.string({ error: 'required' }).min(1, { error: 'required' }),
  })
  .refine((value) => value.password === value.confirmPassword, {
    error: 'passwordsDontMatch',
    path: ['confirmPassword'],
    when: bothPasswordsGiven,
  })

/**
 * Deleting the account (the form on /user-dashboard): the current password, or for an account
 * without one (Google only) the ticked confirmation. Which one the account needs, and whether it is
 * right, is decided by the server (core/accounts/reauthentication.ts), never by the form.
 */
export const DeleteAccountSchema = z.object({
  password: z.string().max(PASSWORD_LIMITS.max, { error: 'passwordTooLong' }).optional(),
  confirm: z.literal('on').optional(),
})
