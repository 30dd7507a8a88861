import { describe, expect, it } from 'vitest'
import { isUuid, UUID_PATTERN } from './ids.ts'

describe('isUuid', () => {
  it('accepts a UUID in either case', () => {
    expect(isUuid('0b6f3c1e-8d2a-4f7b-9c3e-5a1d2e3f4a5b')).toBe(true)
    expect(isUuid('0B6F3C1E-8D2A-4F7B-9C3E-5A1D2E3F4A5B')).toBe(true)
  })

  it('refuses anything else', () => {
    expect(isUuid('0b6f3c1e-8d2a-4f7b-9c3e-5a1d2e3f4a5')).toBe(false)
    expect(isUuid(' 0b6f3c1e-8d2a-4f7b-9c3e-5a1d2e3f4a5b')).toBe(false)
    expect(isUuid('not-a-uuid')).toBe(false)
    expect(isUuid(42)).toBe(false)
    expect(isUuid(undefined)).toBe(false)
  })

  it('is the pattern the services copied before', () => {
    expect(UUID_PATTERN.source).toBe('^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$')
    expect(UUID_PATTERN.flags).toBe('i')
  })
})
