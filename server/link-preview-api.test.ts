import { expect, test } from 'vitest'
import { clientKeyOf } from './link-preview-api.ts'

const from = (ip: string) => ({ ip, socket: {} as never })

test('per-address limits count an IPv4 address, and an IPv6 address by its /64 (security review, 2026-11-28)', () => {
  expect(clientKeyOf(from('198.51.100.7'))).toBe('ip:198.51.100.7')
  expect(clientKeyOf(from('::ffff:198.51.100.7'))).toBe('ip:198.51.100.7')
  // One subscriber's /64: every address in it is one key.
  expect(clientKeyOf(from('2001:db8:1:2:aaaa::1'))).toBe('ip6:2001:db8:1:2::/64')
  expect(clientKeyOf(from('2001:db8:1:2:ffff:ffff:ffff:ffff'))).toBe('ip6:2001:db8:1:2::/64')
  expect(clientKeyOf(from('2001:db8:1:3::1'))).toBe('ip6:2001:db8:1:3::/64')
  expect(clientKeyOf(from('fe80::1%eth0'))).toBe('ip6:fe80:0:0:0::/64')
})
