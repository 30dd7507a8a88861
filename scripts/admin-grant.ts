/**
 * `npm run admin:grant -- <email>`: makes an existing account an admin, recorded in the role
 * audit trail as a system change. Works on DATABASE_URL's server, or on the embedded database
 * (the running app's, or started briefly when the app is stopped).
 */
import { accountCli } from './lib/account-cli.ts'

const { email, client, close } = await accountCli('admin:grant')
try {
  await client.query('BEGIN')
  const { rows } = await client.query<{ id: string }>(
    `UPDATE users SET role = 'admin' WHERE email = $1 RETURNING id`,
    [email],
  )
  const user = rows[0]
  if (!user) {
    await client.query('ROLLBACK')
    console.error(`No account with the e-mail ${email}. It must sign up first.`)
    process.exitCode = 1
  } else {
    await client.query(
      `INSERT INTO role_assignments (user_id, role, assigned_by) VALUES ($1, 'admin', NULL)`,
      [user.id],
    )
    await client.query('COMMIT')
    console.log(`${email} is now an admin. Open sessions see it on their next request.`)
  }
} finally {
  await close()
}
