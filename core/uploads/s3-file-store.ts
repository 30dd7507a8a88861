import { createHash } from 'node:crypto'
import { AwsClient } from 'aws4fetch'
import { assertFileKey, type FileStore } from './file-store.ts'

/**
 * The file store in S3-compatible object storage (AWS S3, Cloudflare R2, MinIO, Backblaze B2…),
 * used when the `S3_*` variables are set (`fileStoreFromEnv`); local disk otherwise. Requests are
 * signed with AWS Signature V4 (aws4fetch), path-style (`<endpoint>/<bucket>/<key>`), which every
 * one of them accepts. The body's SHA-256 is sent and signed, so the storage refuses a body that
 * changed on the way. Objects are private: they are served only through our own routes, which
 * check who is asking (docs/decisions/031).
 */

export type S3Config = {
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Keys go under this folder of the bucket (`storefront/`), if given. */
  prefix: string
  timeoutMs: number
}

export function createS3FileStore(config: S3Config): FileStore {
  const client = new AwsClient({
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    service: 's3',
    region: config.region,
    retries: 2,
  })
  const base = `${config.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(config.bucket)}/`
  const urlOf = (key: string) => {
    assertFileKey(key)
    return `${base}${config.prefix}${key}`
  }
  const call = async (
    what: string,
    key: string,
    init: RequestInit & { headers?: Record<string, string> },
  ) => {
    const response = await client.fetch(urlOf(key), {
      ...init,
      signal: AbortSignal.timeout(config.timeoutMs),
    })
    return { response, fail: () => new Error(`S3 ${what} ${key}: HTTP ${response.status}`) }
  }
  return {
    async put(key, bytes) {
      const { response, fail } = await call('PUT', key, {
        method: 'PUT',
        body: bytes as Uint8Array<ArrayBuffer>,
        headers: {
          'Content-Type': 'application/octet-stream',
          'X-Amz-Content-Sha256': createHash('sha256').update(bytes).digest('hex'),
        },
      })
      await response.body?.cancel()
      if (!response.ok) throw fail()
    },
    async get(key) {
      const { response, fail } = await call('GET', key, { method: 'GET' })
      if (response.status === 404) {
        await response.body?.cancel()
        return null
      }
      if (!response.ok) {
        await response.body?.cancel()
        throw fail()
      }
      return new Uint8Array(await response.arrayBuffer())
    },
    async delete(key) {
      const { response, fail } = await call('DELETE', key, { method: 'DELETE' })
      await response.body?.cancel()
      if (!response.ok && response.status !== 404) throw fail()
    },
  }
}

const S3_VARIABLES = ['S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

/**
 * The S3 settings from the environment, or null when none of `S3_*` is set (local disk). Set by
 * halves, or an endpoint that is not https (plain http only to this machine, for a local
 * stand-in), stops the start with the list of what is wrong.
 */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3Config | null {
  const given = (name: string) => (env[name] ?? '').trim()
  const any = [...S3_VARIABLES, 'S3_ENDPOINT', 'S3_PREFIX'].some((name) => given(name) !== '')
  if (!any) return null
  const problems = S3_VARIABLES.filter((name) => given(name) === '').map(
    (name) => `  ${name}: required when S3 storage is configured`,
  )
  const region = given('S3_REGION')
  const endpoint = given('S3_ENDPOINT') || (region ? `https://s3.${region}.amazonaws.com` : '')
  let url: URL | null = null
  try {
    url = new URL(endpoint)
  } catch {
    if (endpoint) problems.push('  S3_ENDPOINT: not a URL')
  }
  if (
    url &&
    url.protocol !== 'https:' &&
    !(url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
  ) {
    problems.push('  S3_ENDPOINT: use https (plain http only to this machine)')
  }
  const prefix = given('S3_PREFIX').replace(/^\/+|\/+$/g, '')
  if (prefix && !/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(prefix)) {
    problems.push('  S3_PREFIX: lower-case letters, digits, dashes and slashes')
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(given('S3_BUCKET')) && given('S3_BUCKET') !== '') {
    problems.push('  S3_BUCKET: not a bucket name')
  }
  if (problems.length > 0) throw new Error(`Invalid S3 storage settings:\n${problems.join('\n')}`)
  return {
    endpoint,
    region,
    bucket: given('S3_BUCKET'),
    accessKeyId: given('S3_ACCESS_KEY_ID'),
    secretAccessKey: given('S3_SECRET_ACCESS_KEY'),
    prefix: prefix ? `${prefix}/` : '',
    timeoutMs: 15_000,
  }
}
