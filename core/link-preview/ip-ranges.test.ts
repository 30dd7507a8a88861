import { describe, expect, it } from 'vitest'
import { isPublicAddress } from './ip-ranges.ts'

describe('isPublicAddress', () => {
  it('accepts public IPv4 and IPv6 addresses', () => {
    for (const ip of ['8.8.8.8', '1.1.1.1', '133.242.0.1', '2001:4860:4860::8888', '2400:cb00::1']) {
      expect(isPublicAddress(ip), ip).toBe(true)
    }
  })

  it('refuses private, loopback, link-local, reserved and documentation IPv4 ranges', () => {
    const refused = [
      '0.0.0.0',
      '0.1.2.3',
      '10.0.0.5',
      '100.64.0.1',
      '100.127.255.254',
      '127.0.0.1',
      '127.255.255.255',
      '169.254.169.254',
      '169.254.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.0.0.8',
      '192.0.2.1',
      '192.168.1.1',
      '198.18.0.1',
      '198.19.255.255',
      '198.51.100.7',
      '203.0.113.9',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
    ]
    for (const ip of refused) expect(isPublicAddress(ip), ip).toBe(false)
  })

  it('keeps the neighbours of the refused IPv4 ranges public', () => {
    for (const ip of [
      '100.63.255.255',
      '100.128.0.0',
      '172.15.255.255',
      '172.32.0.0',
      '198.20.0.0',
      '11.0.0.1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(true)
    }
  })

  it('refuses the special IPv6 ranges', () => {
    const refused = [
      '::',
      '::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'febf::1',
      'ff02::1',
      '2001:db8::1',
      '64:ff9b::7f00:1',
      '64:ff9b::8.8.8.8',
      '100::1',
      '::127.0.0.1',
    ]
    for (const ip of refused) expect(isPublicAddress(ip), ip).toBe(false)
  })

  it('judges an IPv4-mapped IPv6 address by its IPv4 address', () => {
    expect(isPublicAddress('::ffff:127.0.0.1')).toBe(false)
    expect(isPublicAddress('::ffff:7f00:1')).toBe(false)
    expect(isPublicAddress('::ffff:169.254.169.254')).toBe(false)
    expect(isPublicAddress('::ffff:a00:5')).toBe(false)
    expect(isPublicAddress('0:0:0:0:0:ffff:c0a8:101')).toBe(false)
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true)
    expect(isPublicAddress('::FFFF:808:808')).toBe(true)
  })

  it('refuses what is not an IP address', () => {
    for (const text of ['', 'localhost', 'example.com', '1.2.3', '999.1.1.1', 'fe80::1%eth0', '[::1]']) {
      expect(isPublicAddress(text), text).toBe(false)
    }
  })
})

describe('isPublicAddress: tunnels and forms outside global unicast (security review, 2026-11-28)', () => {
  it('refuses SIIT, 6to4, Teredo, local NAT64, site-local and anything outside 2000::/3', () => {
    for (const ip of [
      '::ffff:0:7f00:1',
      '::ffff:0:a9fe:a9fe',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '64:ff9b:1::a9fe:a9fe',
      'fec0::1',
      '4000::1',
      'e000::1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false)
    }
  })
})
