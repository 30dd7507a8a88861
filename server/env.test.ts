import { expect, test } from 'vitest'
import { parseEnv } from './env.ts'

test('an empty environment gives working local defaults', () => {
  const env = parseEnv({})
  expect(env).toMatchObject({
    NODE_ENV: 'development',
    PORT: 3000,
    APP_URL: 'http://localhost:3000',
    DATA_DIR: './data',
    isProduction: false,
  })
  expect(env.DATABASE_URL).toBeUndefined()
})

test('bad values stop the start with a message naming each variable', () => {
  expect(() => parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(/PORT[\s\S]*DATABASE_URL/)
})

test('an empty DATABASE_URL means the embedded database', () => {
  expect(parseEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined()
})

test('Google sign-in talks to accounts.google.com unless GOOGLE_ISSUER names an https or loopback issuer', () => {
  expect(parseEnv({}).GOOGLE_ISSUER).toBe('https://accounts.google.com')
  expect(parseEnv({ GOOGLE_ISSUER: 'http://127.0.0.1:4324' }).GOOGLE_ISSUER).toBe('http://127.0.0.1:4324')
  expect(parseEnv({ GOOGLE_ISSUER: 'https://id.example.com/tenant' }).GOOGLE_ISSUER).toBe(
    'https://id.example.com/tenant',
  )
  for (const bad of ['http://id.example.com', 'https://id.example.com/?x=1', 'not a url']) {
    expect(() => parseEnv({ GOOGLE_ISSUER: bad })).toThrow(/GOOGLE_ISSUER/)
  }
})

test('no payment variables: bank transfers only; a provider configured by halves stops the start, naming what is missing', () => {
  expect(parseEnv({}).PAYPAL_CLIENT_ID).toBeNull()
  expect(() => parseEnv({ PAYPAL_CLIENT_ID: 'id', PORT: 'eighty' })).toThrow(
    /PORT[\s\S]*PAYPAL_CLIENT_SECRET: required[\s\S]*PAYPAL_WEBHOOK_ID: required/,
  )
  expect(() => parseEnv({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/STRIPE_WEBHOOK_SECRET: required/)
  expect(() =>
    parseEnv({
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_API_URL: 'http://stripe.example',
    }),
  ).toThrow(/STRIPE_API_URL/)
  const env = parseEnv({
    STRIPE_SECRET_KEY: 'sk_test_x',
    STRIPE_WEBHOOK_SECRET: 'whsec_x',
    STRIPE_API_URL: 'http://127.0.0.1:4010',
  })
  expect(env.STRIPE_API_URL).toBe('http://127.0.0.1:4010')
})

test('S3 storage configured by halves stops the start, naming what is missing', () => {
  expect(() => parseEnv({ S3_BUCKET: 'photos', S3_REGION: 'auto' })).toThrow(
    /S3_ACCESS_KEY_ID: required[\s\S]*S3_SECRET_ACCESS_KEY: required/,
  )
  expect(() =>
    parseEnv({
      S3_BUCKET: 'photos',
      S3_REGION: 'auto',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 's',
      S3_ENDPOINT: 'https://account.r2.cloudflarestorage.com',
    }),
  ).not.toThrow()
})
