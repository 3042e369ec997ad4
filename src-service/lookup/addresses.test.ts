import { describe, expect, it } from 'vitest'
import { parseIp, whyNotPublic } from './addresses'

describe('whyNotPublic', () => {
  it.each([
    ['0.0.0.0', 'the "this network" block'],
    ['10.20.30.40', 'a private network'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['172.16.0.1', 'a private network'],
    ['172.31.255.255', 'a private network'],
    ['192.168.0.1', 'a private network'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved (including broadcast)'],
    ['::', 'the unspecified address'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fd12:3456:789a::1', 'unique-local (private)'],
    ['fc00::1', 'unique-local (private)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'a private network'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b:1::a9fe:a9fe', 'local-use NAT64'],
    ['64:ff9b:1:ffff::808:808', 'local-use NAT64'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:0:808:808', 'IPv4-translated'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['2002:c0a8:0101::1', 'a private network'],
    ['2001:db8::1', 'documentation'],
    ['::127.0.0.1', 'IPv4-compatible (deprecated)'],
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(whyNotPublic(address)).toBe(reason)
  })

  it.each(['93.184.215.14', '8.8.8.8', '100.63.255.255', '100.128.0.0', '172.15.255.255', '172.32.0.0', '2606:4700::1111', '64:ff9b::808:808', '2a00:1450:4001:80b::200e'])(
    'lets the public address %s through',
    (address) => {
      expect(whyNotPublic(address)).toBeNull()
    },
  )

  it('refuses what is not an IP address at all', () => {
    expect(whyNotPublic('localhost')).toBe('not an IP address')
    expect(whyNotPublic('')).toBe('not an IP address')
  })
})

describe('parseIp', () => {
  it('expands IPv6 shorthand and embedded IPv4', () => {
    expect(Array.from(parseIp('1:2::ff')!)).toEqual([0, 1, 0, 2, ...Array<number>(10).fill(0), 0, 0xff])
    expect(Array.from(parseIp('::ffff:1.2.3.4')!).slice(10)).toEqual([0xff, 0xff, 1, 2, 3, 4])
    expect(Array.from(parseIp('192.0.2.7')!)).toEqual([192, 0, 2, 7])
  })
})
