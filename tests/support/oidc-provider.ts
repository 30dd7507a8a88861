import { createHash } from 'node:crypto'
import type { ServerResponse } from 'node:http'
import {
  type AugmentedRequest,
  Events,
  type MutableResponse,
  type MutableToken,
  OAuth2Server,
} from 'oauth2-mock-server'

/**
 * A local OpenID Connect provider that stands in for Google in the browser tests
 * (playwright.config.ts starts it: `node tests/support/oidc-provider.ts <port>`).
 *
 * oauth2-mock-server issues real signed tokens; in front of its authorization endpoint this adds
 * a sign-in page where the test says who it is (e-mail and name, always verified) or cancels.
 * The person is carried to the tokens and the userinfo endpoint through the authorization code.
 */
type Person = { sub: string; email: string; email_verified: true; name: string }

const port = Number(process.argv[2])
if (!Number.isInteger(port) || port <= 0) throw new Error('usage: node tests/support/oidc-provider.ts <port>')
const issuer = `http://127.0.0.1:${port}`

const server = new OAuth2Server()
await server.issuer.keys.generate('RS256')
server.issuer.url = issuer

const peopleByCode = new Map<string, Person>()

server.service.on(Events.BeforeWellKnownOpenIdConfiguration, (response: MutableResponse) => {
  if (response.body) response.body.authorization_endpoint = `${issuer}/sign-in`
})

server.service.addRoute('GET', '/sign-in', (req, res) => {
  const hidden = Object.entries(req.query)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('')
  html(
    res,
    `<h1>Local test provider</h1>
    <form method="post" action="/sign-in">${hidden}
      <p><label for="email">E-mail</label> <input id="email" name="email" type="email" required></p>
      <p><label for="name">Name</label> <input id="name" name="name" required></p>
      <p><button name="decision" value="allow">Continue</button>
      <button name="decision" value="deny" formnovalidate>Cancel</button></p>
    </form>`,
  )
})

server.service.addRoute('POST', '/sign-in', (req, res) => {
  const form = stringFields(req)
  const { decision, email = '', name = '', ...authorization } = form
  if (decision === 'deny') {
    // As Google does when the person closes its consent screen.
    const back = new URL(authorization.redirect_uri ?? '')
    back.searchParams.set('error', 'access_denied')
    if (authorization.state) back.searchParams.set('state', authorization.state)
    redirect(res, back.href)
    return
  }
  const person: Person = {
    sub: `local-${createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 20)}`,
    email,
    email_verified: true,
    name,
  }
  const params = new URLSearchParams({ ...authorization, person: JSON.stringify(person) })
  redirect(res, `${issuer}/authorize?${params}`)
})

// The mock's /authorize issues the code (PKCE and nonce included); remember whose it is.
server.service.on(Events.BeforeAuthorizeRedirect, ({ url }: { url: URL }, req: AugmentedRequest) => {
  const code = url.searchParams.get('code')
  const person = typeof req.query.person === 'string' ? (JSON.parse(req.query.person) as Person) : null
  if (code && person) peopleByCode.set(code, person)
})

// Both tokens of the code exchange (access and ID) speak of that person.
server.service.on(Events.BeforeTokenSigning, (token: MutableToken, req: AugmentedRequest) => {
  const code = stringFields(req).code
  const person = code ? peopleByCode.get(code) : undefined
  if (person) Object.assign(token.payload, person)
})

// Userinfo answers from the (signed, our own) access token it is given.
server.service.on(Events.BeforeUserinfo, (response: MutableResponse, req: AugmentedRequest) => {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8') || '{}')
  response.body = {
    sub: payload.sub,
    email: payload.email,
    email_verified: payload.email_verified,
    name: payload.name,
  }
})

await server.start(port, '127.0.0.1')
console.log(`OpenID provider at ${issuer}`)
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void server.stop().then(() => process.exit(0)))
}

function stringFields(req: AugmentedRequest): Record<string, string> {
  const body = req.body && !Array.isArray(req.body) ? req.body : {}
  return Object.fromEntries(
    Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  )
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)
}

function html(res: ServerResponse, body: string) {
  res.statusCode = 200
  res.setHeader('Content-Type', 'text/html; charset=utf-8')
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Local test provider</title><link rel="icon" href="data:,"></head><body><main>${body}</main></body></html>`,
  )
}

function redirect(res: ServerResponse, location: string) {
  res.statusCode = 302
  res.setHeader('Location', location)
  res.end()
}
