import { expect, test } from 'vitest'
import {
  DEFAULT_SHUTDOWN_DRAIN_SECONDS,
  parseEnv,
  READINESS_WATCH_SECONDS,
  shutdownDrainSeconds,
  UNWATCHED_SHUTDOWN_DRAIN_SECONDS,
} from './env.ts'

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

test('the shutdown drain follows the health check: 8 s when /readyz was checked in the last minute, 1 s when not, the variable when set', () => {
  expect(parseEnv({}).SHUTDOWN_DRAIN_SECONDS).toBeUndefined()
  expect(parseEnv({ SHUTDOWN_DRAIN_SECONDS: '3' }).SHUTDOWN_DRAIN_SECONDS).toBe(3)
  expect(() => parseEnv({ SHUTDOWN_DRAIN_SECONDS: '61' })).toThrow(/SHUTDOWN_DRAIN_SECONDS/)
  const nowMs = 1_000_000
  const drain = (configured: number | undefined, lastReadinessCheckMs: number | null) =>
    shutdownDrainSeconds({ configured, lastReadinessCheckMs, nowMs })
  // HAProxy's defaults: a check every 2 s, down after 3 failed in a row: at most 6 s, plus a check.
  expect(DEFAULT_SHUTDOWN_DRAIN_SECONDS).toBeGreaterThanOrEqual(2 * 3 + 2)
  expect(drain(undefined, nowMs - 2000)).toBe(DEFAULT_SHUTDOWN_DRAIN_SECONDS)
  expect(drain(undefined, nowMs - READINESS_WATCH_SECONDS * 1000)).toBe(DEFAULT_SHUTDOWN_DRAIN_SECONDS)
  expect(drain(undefined, nowMs - READINESS_WATCH_SECONDS * 1000 - 1)).toBe(UNWATCHED_SHUTDOWN_DRAIN_SECONDS)
  expect(drain(undefined, null)).toBe(UNWATCHED_SHUTDOWN_DRAIN_SECONDS)
  expect(drain(0, nowMs - 2000)).toBe(0)
  expect(drain(5, null)).toBe(5)
})

test('METRICS_TOKEN: unset or empty means no /metrics; a short or spaced token stops the start', () => {
  expect(parseEnv({}).METRICS_TOKEN).toBeUndefined()
  expect(parseEnv({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined()
  expect(parseEnv({ METRICS_TOKEN: 'scrape-token-0123456789' }).METRICS_TOKEN).toBe('scrape-token-0123456789')
  expect(() => parseEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/)
  expect(() => parseEnv({ METRICS_TOKEN: 'sixteen chars but spaced' })).toThrow(/METRICS_TOKEN/)
})

test('WhatsApp variables are checked together: all four or none (docs/decisions/049)', () => {
  expect(() => parseEnv({ WHATSAPP_ACCESS_TOKEN: 'token' })).toThrow(/WHATSAPP_APP_SECRET: required with/)
  expect(() => parseEnv({ WHATSAPP_API_URL: 'ftp://graph.example' })).toThrow(/WHATSAPP_API_URL/)
  expect(parseEnv({}).WHATSAPP_ACCESS_TOKEN).toBeNull()
})
