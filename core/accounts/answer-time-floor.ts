/**
 * Shortest time, in milliseconds, to answer the requests that must not tell a registered address
 * from an unknown one by their timing. Both paths hash (sign-up) or look up (reset) alike, but
 * only a new account or a reset link writes to the database, and a commit costs a few
 * milliseconds at rest and tens under load. Above the slowest usual answer (about 50 ms at rest,
 * 170 ms with the machine overloaded); e-mails are sent after the answer.
 */
export const ANSWER_TIME_FLOORS_MS: Readonly<Record<string, number>> = {
  '/sign-up/email': 300,
  '/request-password-reset': 300,
}
