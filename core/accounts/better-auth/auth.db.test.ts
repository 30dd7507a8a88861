import { eq } from 'drizzle-orm'
import { expect, test } from 'vitest'
import { accounts, users } from '#db/schema/index.ts'
import { createTestDatabase } from '#tests/db.ts'
import { createTestAuth } from '#tests/support/accounts.ts'

async function setup() {
  const { db } = await createTestDatabase()
  return { db, ...createTestAuth(db, { adminEmails: ['boss@example.com'] }) }
}

test('passwords are stored as argon2id at the OWASP minimum, never in clear', async () => {
  const { db, auth } = await setup()
  await auth.api.signUpEmail({
    body: { email: 'ana@example.com', password: 'correct horse battery', name: 'Ana' },
  })
  const [account] = await db.select({ password: accounts.password }).from(accounts)
  expect(account?.password).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  expect(account?.password).not.toContain('correct horse battery')
})

test('sign-up sends a verification e-mail in the language given, and sign-in waits for it', async () => {
  const { db, auth, sent } = await setup()
  await auth.api.signUpEmail({
    body: { email: 'luis@example.com', password: 'correct horse battery', name: 'Luis', language: 'en' },
  })
  expect(sent).toEqual([
    expect.objectContaining({ kind: 'verify-email', to: 'luis@example.com', language: 'en' }),
  ])
  await expect(
    auth.api.signInEmail({ body: { email: 'luis@example.com', password: 'correct horse battery' } }),
  ).rejects.toMatchObject({
    body: { code: 'EMAIL_NOT_VERIFIED' },
  })
  await db.update(users).set({ emailVerified: true }).where(eq(users.email, 'luis@example.com'))
  const signedIn = await auth.api.signInEmail({
    body: { email: 'luis@example.com', password: 'correct horse battery' },
  })
  expect(signedIn.token).toEqual(expect.any(String))
  await expect(
    auth.api.signInEmail({ body: { email: 'luis@example.com', password: 'wrong password!!' } }),
  ).rejects.toMatchObject({
    body: { code: 'INVALID_EMAIL_OR_PASSWORD' },
  })
})

test('ADMIN_EMAILS sign-ups are admins; everyone else is a user', async () => {
  const { db, auth } = await setup()
  await auth.api.signUpEmail({
    body: { email: 'Boss@Example.com', password: 'correct horse battery', name: 'Boss' },
  })
  await auth.api.signUpEmail({
    body: { email: 'client@example.com', password: 'correct horse battery', name: 'Client' },
  })
  const rows = await db.select({ email: users.email, role: users.role }).from(users).orderBy(users.email)
  expect(rows).toEqual([
    { email: 'boss@example.com', role: 'admin' },
    { email: 'client@example.com', role: 'user' },
  ])
})

test('a password shorter than 8 characters is refused and nothing is written', async () => {
  const { db, auth } = await setup()
  await expect(
    auth.api.signUpEmail({ body: { email: 'short@example.com', password: 'short', name: 'S' } }),
  ).rejects.toMatchObject({
    body: { code: 'PASSWORD_TOO_SHORT' },
  })
  expect(await db.select().from(users)).toEqual([])
})

test('a common password is refused at sign-up, whatever its case, and nothing is written', async () => {
  const { db, auth, sent } = await setup()
  for (const password of ['password123', '  Password123 ']) {
    await expect(
      auth.api.signUpEmail({ body: { email: 'common@example.com', password, name: 'C' } }),
    ).rejects.toMatchObject({ statusCode: 400, body: { code: 'PASSWORD_TOO_COMMON' } })
  }
  expect(await db.select().from(users)).toEqual([])
  expect(await db.select().from(accounts)).toEqual([])
  expect(sent).toEqual([])
})

test('a common password is refused by reset-password (the token stays usable) and change-password', async () => {
  const { db, auth, sent } = await setup()
  await auth.api.signUpEmail({
    body: { email: 'rosa@example.com', password: 'correct horse battery', name: 'Rosa' },
  })
  await db.update(users).set({ emailVerified: true }).where(eq(users.email, 'rosa@example.com'))
  const [before] = await db.select({ password: accounts.password }).from(accounts)

  await auth.api.requestPasswordReset({ body: { email: 'rosa@example.com', redirectTo: '/reset' } })
  const resetUrl = sent.find((message) => message.kind === 'reset-password')?.url ?? ''
  const token = new URL(resetUrl).pathname.split('/').at(-1) ?? ''
  await expect(auth.api.resetPassword({ body: { token, newPassword: 'iloveyou' } })).rejects.toMatchObject({
    body: { code: 'PASSWORD_TOO_COMMON' },
  })
  expect((await db.select({ password: accounts.password }).from(accounts))[0]).toEqual(before)
  await expect(
    auth.api.resetPassword({ body: { token, newPassword: 'a brand new password' } }),
  ).resolves.toEqual({
    status: true,
  })

  const { headers } = await auth.api.signInEmail({
    body: { email: 'rosa@example.com', password: 'a brand new password' },
    returnHeaders: true,
  })
  const cookie = headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ')
  await expect(
    auth.api.changePassword({
      body: { currentPassword: 'a brand new password', newPassword: 'QWERTY123' },
      headers: new Headers({ cookie }),
    }),
  ).rejects.toMatchObject({ body: { code: 'PASSWORD_TOO_COMMON' } })
  await expect(
    auth.api.signInEmail({ body: { email: 'rosa@example.com', password: 'a brand new password' } }),
  ).resolves.toMatchObject({ token: expect.any(String) })
})

test('signing up again with a registered address, admin or not, answers exactly like a new sign-up', async () => {
  const { auth } = await setup()
  const signUp = (email: string) =>
    auth.api.signUpEmail({ body: { email, password: 'correct horse battery', name: 'Same' } })
  const comparable = (answer: Awaited<ReturnType<typeof signUp>>) => ({
    ...answer,
    user: { ...answer.user, id: 'id', createdAt: 'at', updatedAt: 'at' },
  })
  for (const email of ['boss@example.com', 'client@example.com']) {
    const created = await signUp(email)
    const again = await signUp(email)
    expect(created.user.id).not.toBe(again.user.id)
    expect(comparable(again)).toEqual(comparable(created))
  }
})
