// The address a request came from, for the rate limit and sign-in throttling. Behind a load balancer every request
// arrives from the balancer, so its X-Forwarded-For names the client, but only a proxy the operator names
// (`--trust-proxy`) is believed: anyone else could write any address there and dodge both limits.
import type { IncomingMessage } from 'node:http'
import { isIP } from 'node:net'

/** Says which address `request` is from. */
export type ClientAddress = (request: IncomingMessage) => string

/**
 * The socket's peer, unless it is one of `trustedProxies`: then X-Forwarded-For is read from the right (each proxy
 * appends the address it saw) and the first hop that is not a trusted proxy is the client. A hop that is not an IP
 * address ends the reading at the last address a trusted proxy vouched for.
 */
export function clientAddressOf(trustedProxies: readonly string[] = []): ClientAddress {
  const trusted = new Set(trustedProxies.map(plainAddress))
  return (request) => {
    let address = plainAddress(request.socket.remoteAddress ?? 'unknown')
    if (!trusted.has(address)) return address
    const header = request.headers['x-forwarded-for']
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((hop) => hop.trim()).filter(Boolean)
    for (const hop of hops.reverse()) {
      if (isIP(plainAddress(hop)) === 0) return address
      address = plainAddress(hop)
      if (!trusted.has(address)) return address
    }
    return address
  }
}

/** An IPv4 address as such, also when a dual-stack socket reports it mapped into IPv6 (::ffff:127.0.0.1). */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
}
