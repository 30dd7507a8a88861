import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { AwsV4Signer } from 'aws4fetch'

/**
 * A local stand-in for S3-compatible storage (what MinIO or R2 answer, for PUT, GET and DELETE
 * of one object, path-style), for the tests of the S3 file store. It checks what the real
 * services check: the AWS Signature V4 of every request (recomputed with the shared secret from
 * the headers the request says it signed) and, on PUT, the body against its signed SHA-256.
 * Objects live in memory.
 */

export type S3StandIn = {
  url: string
  objects: Map<string, Buffer>
  calls: { method: string; path: string; status: number }[]
  /** Answer every request with this status until cleared (a storage outage). */
  failWith: number | null
  close(): Promise<void>
}

export async function startS3StandIn(options: {
  accessKeyId: string
  secretAccessKey: string
  region: string
  bucket: string
}): Promise<S3StandIn> {
  const objects = new Map<string, Buffer>()
  const calls: S3StandIn['calls'] = []
  const state: { failWith: number | null } = { failWith: null }
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks)
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`)
    const answer = (status: number, text = '') => {
      calls.push({ method: request.method ?? '', path: url.pathname, status })
      response.writeHead(status, { 'Content-Type': 'application/xml' })
      response.end(text)
    }
    if (state.failWith) return answer(state.failWith, '<Error><Code>InternalError</Code></Error>')
    const auth = request.headers.authorization ?? ''
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
        auth,
      )
    if (!match || match[1] !== options.accessKeyId || match[3] !== options.region) {
      return answer(403, '<Error><Code>InvalidAccessKeyId</Code></Error>')
    }
    const headers: Record<string, string> = {}
    for (const name of (match[4] ?? '').split(';')) {
      const value = request.headers[name]
      if (name !== 'host' && typeof value === 'string') headers[name] = value
    }
    const signer = new AwsV4Signer({
      method: request.method ?? 'GET',
      url: url.toString(),
      headers,
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      service: 's3',
      region: options.region,
      datetime: String(request.headers['x-amz-date'] ?? ''),
    })
    const expected = (await signer.sign()).headers.get('authorization')
    if (expected !== auth) return answer(403, '<Error><Code>SignatureDoesNotMatch</Code></Error>')
    const [, bucket, ...rest] = url.pathname.split('/')
    if (bucket !== options.bucket) return answer(404, '<Error><Code>NoSuchBucket</Code></Error>')
    const key = decodeURIComponent(rest.join('/'))
    if (request.method === 'PUT') {
      const sent = String(request.headers['x-amz-content-sha256'] ?? '')
      if (sent !== createHash('sha256').update(body).digest('hex')) {
        return answer(400, '<Error><Code>XAmzContentSHA256Mismatch</Code></Error>')
      }
      objects.set(key, body)
      return answer(200)
    }
    if (request.method === 'GET') {
      const found = objects.get(key)
      if (!found) return answer(404, '<Error><Code>NoSuchKey</Code></Error>')
      calls.push({ method: 'GET', path: url.pathname, status: 200 })
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': found.length })
      return response.end(found)
    }
    if (request.method === 'DELETE') {
      objects.delete(key)
      return answer(204)
    }
    return answer(405)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    calls,
    get failWith() {
      return state.failWith
    },
    set failWith(value) {
      state.failWith = value
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
