/**
 * The contact form's fields, without zod: the form in the browser needs only these, the
 * schema (contact-schemas.ts) builds on them for the server.
 */
export const CONTACT_SUBJECTS = ['general', 'order', 'shipping', 'product', 'other'] as const
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]

export const CONTACT_LIMITS = { name: 100, email: 254, message: 5000 } as const

/** What the form sends, as the browser sends it. */
export type ContactFormFields = {
  name: string
  email: string
  subject: ContactSubject
  message: string
  botcheck?: string
}
