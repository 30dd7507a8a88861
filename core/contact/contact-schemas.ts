import { z } from 'zod'

import { CONTACT_LIMITS, CONTACT_SUBJECTS } from './contact-fields.ts'

// Messages are i18n keys under `contact.form.errors`; the UI translates them. NUL and other
// control characters (except line breaks and tabs) are refused: PostgreSQL cannot store NUL,
// and nobody types them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

const text = (max: number) =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(max, { error: 'tooLong', abort: true })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'invalidCharacters' })

/** One schema for the form (in the browser) and the server action. */
export const ContactMessageSchema = z.object({
  name: text(CONTACT_LIMITS.name),
  email: z
    .string({ error: 'required' })
    .trim()
    .min(1, { error: 'required', abort: true })
    .max(CONTACT_LIMITS.email, { error: 'tooLong', abort: true })
    .pipe(z.email({ error: 'email' })),
  // Not required (the spec requires name, e-mail and message): none chosen is a general inquiry.
  subject: z.enum(CONTACT_SUBJECTS, { error: 'subject' }).default('general'),
  message: text(CONTACT_LIMITS.message),
  // The hidden bot-check box: people never see it, so only bots tick it.
  botcheck: z
    .string()
    .optional()
    .transform((value) => value !== undefined && value !== ''),
})

export type ContactMessageInput = z.output<typeof ContactMessageSchema>
