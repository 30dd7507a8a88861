import { createServer, type Server } from 'node:http'

/**
 * A local HTTP server standing in for the external form-handling service: records what it is
 * sent and answers as told (success, an HTTP error, or a success:false body).
 */
export async function startFormService() {
  const received: Record<string, unknown>[] = []
  let mode: 'ok' | 'http-error' | 'rejected' = 'ok'
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      received.push(JSON.parse(body || '{}'))
      res.setHeader('content-type', 'application/json')
      if (mode === 'http-error') {
        res.statusCode = 503
        res.end(JSON.stringify({ success: false, message: 'temporarily unavailable' }))
      } else if (mode === 'rejected') {
        res.end(JSON.stringify({ success: false, message: 'invalid access key' }))
      } else {
        res.end(JSON.stringify({ success: true, message: 'Email sent successfully!' }))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}/submit`,
    received,
    setMode(next: typeof mode) {
      mode = next
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
