import { spawnSync } from 'node:child_process'
import { expect, test } from 'vitest'
import { createTestDatabase } from '#tests/db.ts'

test('admin:grant makes an existing account admin, records it, and refuses an unknown e-mail', async () => {
  const { url, pool } = await createTestDatabase()
  await pool.query(
    `INSERT INTO users (id, name, email, email_verified, created_at, updated_at, role) VALUES ('u1', 'Ana', 'ana@example.com', true, now(), now(), 'user')`,
  )
  const run = (email: string) =>
    spawnSync(process.execPath, ['scripts/admin-grant.ts', email], {
      env: { ...process.env, DATABASE_URL: url },
      encoding: 'utf8',
    })

  const granted = run('Ana@Example.com')
  expect(granted.status).toBe(0)
  expect(granted.stdout).toContain('ana@example.com is now an admin')
  expect((await pool.query(`SELECT role FROM users WHERE id = 'u1'`)).rows).toEqual([{ role: 'admin' }])
  expect((await pool.query('SELECT user_id, role, assigned_by FROM role_assignments')).rows).toEqual([
    { user_id: 'u1', role: 'admin', assigned_by: null },
  ])

  const unknown = run('nobody@example.com')
  expect(unknown.status).toBe(1)
  expect(unknown.stderr).toContain('No account with the e-mail nobody@example.com')
  expect(run('not-an-email').status).toBe(2)
})
