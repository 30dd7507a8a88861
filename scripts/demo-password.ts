/**
 * `npm run demo:password -- <email>`: gives an existing account a new random password, hashed as
 * the app hashes passwords (core/accounts/passwords.ts), prints it once and signs the account out
 * everywhere (its sessions are deleted). Meant for the demo accounts, whose passwords `npm start`
 * prints only when it creates them; it works for any account. Works on DATABASE_URL's server, or
 * on the embedded database (the running app's, or started briefly when the app is stopped).
 */
import { randomBytes } from 'node:crypto'
import { hashPassword } from '../core/accounts/passwords.ts'
import { accountCli } from './lib/account-cli.ts'

const { email, client, close } = await accountCli('demo:password')
try {
  const password = randomBytes(12).toString('base64url')
  const digest = await hashPassword(password)
  await client.query('BEGIN')
  const { rows } = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1 FOR UPDATE', [
    email,
  ])
  const user = rows[0]
  if (!user) {
    await client.query('ROLLBACK')
    console.error(`No account with the e-mail ${email}.`)
    process.exitCode = 1
  } else {
    const updated = await client.query(
      `UPDATE accounts SET password = $2, updated_at = now() WHERE user_id = $1 AND provider_id = 'credential'`,
      [user.id, digest],
    )
    if (updated.rowCount === 0) {
      // Adding a way to sign in to an account (one that only uses Google) is not this tool's call.
      await client.query('ROLLBACK')
      console.error(`${email} has no password sign-in (it signs in with Google); nothing changed.`)
      process.exitCode = 1
    } else {
      const revoked = await client.query('DELETE FROM sessions WHERE user_id = $1', [user.id])
      await client.query('COMMIT')
      console.log(`New password for ${email}: ${password}`)
      console.log(`It is shown only now. ${revoked.rowCount ?? 0} open session(s) were signed out.`)
    }
  }
} finally {
  await close()
}
