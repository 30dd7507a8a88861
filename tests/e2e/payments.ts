import pg from 'pg'
import { runningEmbeddedUrl } from '../../server/embedded-postgres.ts'
import { insertQuotedRequest, type QuotedItem } from '../support/invoices.ts'

/**
 * A quoted request with its open invoice for `userId`, written into an e2e server's own database
 * (as the quotes slice issues one), so the payment tests start at "the customer has a quote".
 */
export async function insertQuote(
  dataDir: string,
  userId: string,
  options: { items?: QuotedItem[]; locale?: 'es' | 'en' } = {},
) {
  const client = new pg.Client({ connectionString: runningEmbeddedUrl(dataDir) })
  await client.connect()
  try {
    return await insertQuotedRequest(client, { userId, ...options })
  } finally {
    await client.end()
  }
}
