// Which IP addresses a lookup may connect to. A lookup fetches a URL a client chose, so without this check a client
// could make the service read its own admin ports, the LAN, or a cloud metadata endpoint (server-side request
// forgery). Only globally routable unicast addresses pass.
import { isIP } from 'node:net'

interface Range {
  bytes: number[]
  bits: number
  what: string
}

const IPV4_RANGES: Range[] = [
  range([0, 0, 0, 0], 8, 'the "this network" block'),
  range([10, 0, 0, 0], 8, 'a private network'),
  range([100, 64, 0, 0], 10, 'carrier-grade NAT'),
  range([127, 0, 0, 0], 8, 'loopback'),
  range([169, 254, 0, 0], 16, 'link-local'),
  range([172, 16, 0, 0], 12, 'a private network'),
  range([192, 0, 0, 0], 24, 'IETF protocol assignments'),
  range([192, 0, 2, 0], 24, 'documentation'),
  range([192, 88, 99, 0], 24, '6to4 relay anycast'),
  range([192, 168, 0, 0], 16, 'a private network'),
  range([198, 18, 0, 0], 15, 'benchmarking'),
  range([198, 51, 100, 0], 24, 'documentation'),
  range([203, 0, 113, 0], 24, 'documentation'),
  range([224, 0, 0, 0], 4, 'multicast'),
  range([240, 0, 0, 0], 4, 'reserved (including broadcast)'),
]

const IPV6_RANGES: Range[] = [
  range([], 128, 'the unspecified address'),
  range([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback'),
  range([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96, 'IPv4-compatible (deprecated)'),
  range([0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0], 96, 'IPv4-translated'),
  range([0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'local-use NAT64'),
  range([0x01, 0x00], 64, 'discard-only'),
  range([0x20, 0x01, 0x00, 0x00], 32, 'Teredo tunnelling'),
  range([0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'),
  range([0xfc], 7, 'unique-local (private)'),
  range([0xfe, 0x80], 10, 'link-local'),
  range([0xfe, 0xc0], 10, 'site-local (deprecated)'),
  range([0xff], 8, 'multicast'),
]

// IPv6 forms that carry an IPv4 address: the embedded address decides (an IPv4-mapped one is refused anyway). The
// IPv4-translated and local-use NAT64 ranges above carry one too, but translate to whatever the local network chooses.
const IPV4_MAPPED = range([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96, 'IPv4-mapped')
const NAT64 = range([0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, 'NAT64')
const SIX_TO_FOUR = range([0x20, 0x02], 16, '6to4')

function range(prefix: number[], bits: number, what: string): Range {
  return { bytes: prefix, bits, what }
}

/**
 * Why `address` is not a public unicast address (e.g. "loopback"), or null when it is one. Anything that is not an
 * IP address at all is refused too.
 */
export function whyNotPublic(address: string): string | null {
  const parsed = parseIp(address)
  if (!parsed) return 'not an IP address'
  if (parsed.length === 4) return matchRange(parsed, IPV4_RANGES)

  // A mapped address is how a dual-stack socket shows an IPv4 peer, never what DNS should answer: only its
  // embedded address can say why more precisely.
  if (inRange(parsed, IPV4_MAPPED)) return matchRange(parsed.slice(12), IPV4_RANGES) ?? IPV4_MAPPED.what
  if (inRange(parsed, NAT64)) return matchRange(parsed.slice(12), IPV4_RANGES)
  if (inRange(parsed, SIX_TO_FOUR)) return matchRange(parsed.slice(2, 6), IPV4_RANGES)
  return matchRange(parsed, IPV6_RANGES)
}

function matchRange(bytes: Uint8Array, ranges: Range[]): string | null {
  return ranges.find((candidate) => inRange(bytes, candidate))?.what ?? null
}

function inRange(bytes: Uint8Array, { bytes: prefix, bits }: Range): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const index = bit >> 3
    const mask = 0x80 >> (bit & 7)
    if (((bytes[index] ?? 0) & mask) !== ((prefix[index] ?? 0) & mask)) return false
  }
  return true
}

/** The address's bytes (4 or 16), or null when it is not an IP address. A zone (`%eth0`) is ignored. */
export function parseIp(text: string): Uint8Array | null {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '')
  switch (isIP(address)) {
    case 4:
      return Uint8Array.from(address.split('.').map(Number))
    case 6:
      return parseIpv6(address)
    default:
      return null
  }
}

function parseIpv6(address: string): Uint8Array {
  // isIP has checked the syntax; what is left is expanding "::" and a trailing dotted quad.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1]
  const hex = dotted === undefined ? address : address.slice(0, -dotted.length) + dottedToHex(dotted)
  const [head = '', tail] = hex.split('::')
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)))
  const headGroups = groupsOf(head)
  const tailGroups = tail === undefined ? [] : groupsOf(tail)
  const groups = [...headGroups, ...Array<number>(8 - headGroups.length - tailGroups.length).fill(0), ...tailGroups]
  const bytes = new Uint8Array(16)
  groups.forEach((group, index) => {
    bytes[index * 2] = group >> 8
    bytes[index * 2 + 1] = group & 0xff
  })
  return bytes
}

function dottedToHex(dotted: string): string {
  const [a = 0, b = 0, c = 0, d = 0] = dotted.split('.').map(Number)
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
}
