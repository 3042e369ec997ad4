// Entry ids (spec §2.7): `tag:<domain>,<year>:<kind>-<number>`, e.g. tag:blogdesk.local,2026:photo-42.

// A service answers from one origin: parsing it once spares a URL parse for every entry of every reply and feed.
let lastOrigin: { origin: string; domain: string } | null = null

/** The service's host names the domain of its tag URIs: an IPv6 address without its brackets. */
export function tagDomain(origin: string): string {
  if (lastOrigin?.origin !== origin) {
    lastOrigin = { origin, domain: new URL(origin).hostname.replace(/^\[(.*)\]$/, '$1') }
  }
  return lastOrigin.domain
}

/** `created` (W3CDTF) gives the year. */
export function tagUri(origin: string, created: string, kind: string, id: number): string {
  return `tag:${tagDomain(origin)},${created.slice(0, 4)}:${kind}-${id}`
}
