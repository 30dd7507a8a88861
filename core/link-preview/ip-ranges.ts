import { BlockList, isIPv4, isIPv6 } from 'node:net'

/**
 * Which IP addresses the link preview may connect to: only public unicast ones. Loopback,
 * private, link-local (with the cloud metadata address 169.254.169.254), carrier-grade NAT,
 * documentation, benchmarking, multicast and reserved ranges are refused, in IPv4 and IPv6.
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged by its IPv4 address; NAT64
 * (64:ff9b::/96) and the deprecated IPv4-compatible ::/96 are refused outright. Anything that
 * is not an IP address at all is not public.
 */

const V4_RANGES: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
]

const V6_RANGES: readonly [string, number][] = [
  ['::', 96],
  // SIIT (::ffff:0:a.b.c.d), 6to4 and Teredo carry an IPv4 address a tunnel may reach.
  ['::ffff:0:0:0', 96],
  ['2002::', 16],
  ['2001::', 32],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['fec0::', 10],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
]

const refusedV4 = new BlockList()
for (const [network, prefix] of V4_RANGES) refusedV4.addSubnet(network, prefix, 'ipv4')
refusedV4.addAddress('255.255.255.255', 'ipv4')

const refusedV6 = new BlockList()
for (const [network, prefix] of V6_RANGES) refusedV6.addSubnet(network, prefix, 'ipv6')

/** True only for a public unicast IPv4 or IPv6 address. */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) return !refusedV4.check(ip, 'ipv4')
  if (!isIPv6(ip) || ip.includes('%')) return false
  const mapped = embeddedV4(ip)
  if (mapped !== null) return isIPv4(mapped) && !refusedV4.check(mapped, 'ipv4')
  // Only global unicast (2000::/3) is public, less the blocks above inside it.
  const first = expandV6(ip)?.[0] ?? 0
  if (first >> 13 !== 0b001) return false
  return !refusedV6.check(ip, 'ipv6')
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:0:0/96), else null. */
function embeddedV4(ip: string): string | null {
  const groups = expandV6(ip)
  if (groups === null) return null
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff
  if (!isMapped) return null
  const high = groups[6] ?? 0
  const low = groups[7] ?? 0
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/** The eight 16-bit groups of a valid IPv6 address (a dotted IPv4 tail included). */
export function expandV6(ip: string): number[] | null {
  let text = ip.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const octets = dotted[1].split('.').map(Number)
    const [a = 0, b = 0, c = 0, d = 0] = octets
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const missing = 8 - headGroups.length - tailGroups.length
  if (tail === undefined ? missing !== 0 : missing < 1) return null
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups]
  return groups.map((group) => Number.parseInt(group, 16))
}
