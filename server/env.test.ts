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
