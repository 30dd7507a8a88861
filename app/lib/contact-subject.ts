import type { TFunction } from 'i18next'
import { CONTACT_SUBJECTS } from '#core/contact/contact-fields.ts'

/** A stored contact subject's label (admin area); one the form no longer offers is shown as stored. */
export function subjectLabel(t: TFunction, subject: string): string {
  const known = CONTACT_SUBJECTS.find((candidate) => candidate === subject)
  return known ? t(`inbox.subjects.${known}`) : subject
}
