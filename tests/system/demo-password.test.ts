import { spawnSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { hashPassword, verifyPassword } from '#core/accounts/passwords.ts'
import { createTestDatabase } from '#tests/db.ts'

test('demo:password sets a new random password, prints it once, signs the account out, and refuses what it cannot do', async () => {
  const { url, pool } = await createTestDatabase()
  const oldHash = await hashPassword('the old password')
  for (const [id, email] of [
    ['u1', 'demo-customer@example.com'],
    ['u2', 'other@example.com'],
    ['u3', 'google-only@example.com'],
  ]) {
    await pool.query(
      `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role) VALUES ($1, 'Someone', $2, true, now(), now(), 'user')`,
      [id, email],
    )
  }
  for (const [id, user, provider] of [
    ['a1', 'u1', 'credential'],
    ['a2', 'u2', 'credential'],
    ['a3', 'u3', 'google'],
  ]) {
    await pool.query(
      `INSERT INTO accounts (id, account_id, provider_id, user_id, password, created_at, updated_at) VALUES ($1, $2, $3, $2, $4, now(), now())`,
      [id, user, provider, provider === 'credential' ? oldHash : null],
    )
  }
  for (const [id, user] of [
    ['s1', 'u1'],
    ['s2', 'u1'],
    ['s3', 'u2'],
  ]) {
    await pool.query(
      `INSERT INTO sessions (id, expires_at, token, created_at, updated_at, user_id) VALUES ($1, now() + interval '1 day', $1, now(), now(), $2)`,
      [id, user],
    )
  }
  const run = (email: string) =>
    spawnSync(process.execPath, ['scripts/demo-password.ts', email], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
    })
  const passwordOf = async (user: string) =>
    (await pool.query<{ password: string }>(`SELECT password FROM accounts WHERE user_id = $1`, [user]))
      .rows[0]?.password ?? ''

  const reset = run('Demo-Customer@Example.com')
  expect(reset.status).toBe(0)
  const printed = /New password for demo-customer@example\.com: (\S+)/.exec(reset.stdout)?.[1] ?? ''
  expect(printed).toMatch(/^[\w-]{16}$/)
  expect(reset.stdout).toContain('2 open session(s) were signed out')
  const stored = await passwordOf('u1')
  expect(stored).not.toContain(printed)
  expect(await verifyPassword({ hash: stored, password: printed })).toBe(true)
  expect(await verifyPassword({ hash: stored, password: 'the old password' })).toBe(false)
  expect((await pool.query('SELECT id FROM sessions ORDER BY id')).rows).toEqual([{ id: 's3' }])
  // Someone else's password is untouched, and a second run gives another password.
  expect(await passwordOf('u2')).toBe(oldHash)
  const again = run('demo-customer@example.com')
  expect(/New password for \S+: (\S+)/.exec(again.stdout)?.[1]).not.toBe(printed)

  const unknown = run('nobody@example.com')
  expect(unknown.status).toBe(1)
  expect(unknown.stderr).toContain('No account with the e-mail nobody@example.com')
  const google = run('google-only@example.com')
  expect(google.status).toBe(1)
  expect(google.stderr).toContain('has no password sign-in')
  expect((await pool.query(`SELECT provider_id FROM accounts WHERE user_id = 'u3'`)).rows).toEqual([
    { provider_id: 'google' },
  ])
  expect(run('not-an-email').status).toBe(2)
})
