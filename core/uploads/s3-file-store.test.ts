import { afterAll, beforeAll, expect, test } from 'vitest'
import { type S3StandIn, startS3StandIn } from '#tests/support/s3-stand-in.ts'
import { createS3FileStore, type S3Config, s3ConfigFromEnv } from './s3-file-store.ts'

// The S3 file store against a local stand-in that checks the signature and the body's hash as
// S3, R2 or MinIO do.

const CREDENTIALS = {
  accessKeyId: 'AKIATESTSTOREFRONT',
  secretAccessKey: 'test-secret-0123456789',
  region: 'auto',
}
let standIn: S3StandIn
let config: S3Config

beforeAll(async () => {
  standIn = await startS3StandIn({ ...CREDENTIALS, bucket: 'storefront-test' })
  config = {
    ...CREDENTIALS,
    endpoint: standIn.url,
    bucket: 'storefront-test',
    prefix: 'uploads/',
    timeoutMs: 5_000,
  }
})
afterAll(() => standIn.close())

test('put, get and delete one object, under the prefix, signed and checked', async () => {
  const store = createS3FileStore(config)
  const bytes = new Uint8Array([1, 2, 3, 250, 251, 252])
  await store.put('packages/abc-123/1.webp', bytes)
  expect([...standIn.objects.keys()]).toContain('uploads/packages/abc-123/1.webp')
  expect(await store.get('packages/abc-123/1.webp')).toEqual(bytes)
  expect(await store.get('packages/abc-123/2.webp')).toBeNull()
  await store.delete('packages/abc-123/1.webp')
  await store.delete('packages/abc-123/1.webp')
  expect(await store.get('packages/abc-123/1.webp')).toBeNull()
})

test('a wrong secret is refused by the storage and the store says so; keys are checked before any call', async () => {
  const wrong = createS3FileStore({ ...config, secretAccessKey: 'not-the-secret' })
  const before = standIn.calls.length
  await expect(wrong.put('packages/x/1.webp', new Uint8Array([1]))).rejects.toThrow(/HTTP 403/)
  await expect(wrong.get('packages/x/1.webp')).rejects.toThrow(/HTTP 403/)
  expect(standIn.calls.slice(before).every((call) => call.status === 403)).toBe(true)
  const store = createS3FileStore(config)
  const calls = standIn.calls.length
  await expect(store.put('../etc/passwd', new Uint8Array([1]))).rejects.toThrow(/Not a file key/)
  await expect(store.get('Packages/UPPER.webp')).rejects.toThrow(/Not a file key/)
  expect(standIn.calls.length).toBe(calls)
})

test('a storage outage is an error after the retries, never a silent null', async () => {
  const store = createS3FileStore(config)
  await store.put('packages/y/1.webp', new Uint8Array([9]))
  standIn.failWith = 503
  try {
    const before = standIn.calls.length
    await expect(store.get('packages/y/1.webp')).rejects.toThrow(/HTTP 503/)
    // The first try and two retries.
    expect(standIn.calls.length - before).toBe(3)
  } finally {
    standIn.failWith = null
  }
  expect(await store.get('packages/y/1.webp')).toEqual(new Uint8Array([9]))
})

test('configuration: none is local disk; halves, plain http to another host or a bad prefix stop the start', () => {
  expect(s3ConfigFromEnv({})).toBeNull()
  expect(() => s3ConfigFromEnv({ S3_BUCKET: 'b-1' })).toThrow(/S3_REGION: required[\s\S]*S3_ACCESS_KEY_ID/)
  const full = {
    S3_BUCKET: 'photos',
    S3_REGION: 'eu-west-3',
    S3_ACCESS_KEY_ID: 'a',
    S3_SECRET_ACCESS_KEY: 's',
  }
  expect(s3ConfigFromEnv(full)).toMatchObject({ endpoint: 'https://s3.eu-west-3.amazonaws.com', prefix: '' })
  expect(() => s3ConfigFromEnv({ ...full, S3_ENDPOINT: 'http://minio.example.com' })).toThrow(/use https/)
  expect(
    s3ConfigFromEnv({ ...full, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_PREFIX: '/shop/' }),
  ).toMatchObject({
    endpoint: 'http://127.0.0.1:9000',
    prefix: 'shop/',
  })
  expect(() => s3ConfigFromEnv({ ...full, S3_PREFIX: '../up' })).toThrow(/S3_PREFIX/)
})
