// Paging a feed whose server gives no prev/next links. Movable Type's FeedURI takes `offset=` (and `limit=`) path
// segments instead (test-fixtures/peers/mt/ok/12: `…/blog_id=2/limit=1/offset=1`), so for an address in its
// `name=value` segment style the next page is the same address at the next offset, until a page comes back empty
// or shorter than the first.

/** A FeedURI in Movable Type's path-segment style, taken apart. */
interface SegmentAddress {
  /** The address without its limit and offset segments. */
  base: URL
  offset: number
  limit: number | null
}

const PAGING_SEGMENT = /^(offset|limit)=(\d{1,9})$/
const NAMED_SEGMENT = /^[A-Za-z_]+=[^=/]+$/

function segmentAddressOf(uri: string): SegmentAddress | null {
  const base = new URL(uri)
  const segments = base.pathname.split('/')
  const paging: Record<string, number> = {}
  for (let match = PAGING_SEGMENT.exec(segments.at(-1)!); match; match = PAGING_SEGMENT.exec(segments.at(-1)!)) {
    if (match[1]! in paging) return null
    paging[match[1]!] = Number(match[2])
    segments.pop()
  }
  if (!NAMED_SEGMENT.test(segments.at(-1)!)) return null
  base.pathname = segments.join('/')
  return { base, offset: paging['offset'] ?? 0, limit: paging['limit'] ?? null }
}

function pageUri({ base, limit }: SegmentAddress, offset: number): string {
  const url = new URL(base)
  url.pathname += `${limit === null ? '' : `/limit=${limit}`}${offset > 0 ? `/offset=${offset}` : ''}`
  return url.href
}

/** How many first pages' lengths are remembered: one per feed paged in this session is plenty. */
const REMEMBERED_FEEDS = 200

export class OffsetPaging {
  /** The length of each feed's first page (by its address without paging segments): the size of a full page. */
  readonly #firstPageLength = new Map<string, number>()

  /**
   * prev and next for the page at `uri` that held `count` posts, when the server gave no paging links; both null
   * when the address is not in the segment style. Without `limit=`, a page's size is the first page's length, as
   * seen by this client; a later page whose first page it has not seen ends the feed only when it is empty.
   */
  links(uri: string, count: number): { next: string | null; prev: string | null } {
    const address = segmentAddressOf(uri)
    if (address === null) return { next: null, prev: null }
    const key = address.base.href
    if (address.offset === 0 && address.limit === null) this.#remember(key, count)
    const pageSize = address.limit ?? this.#firstPageLength.get(key) ?? null
    const isLast = count === 0 || (pageSize !== null && count < pageSize)
    return {
      next: isLast ? null : pageUri(address, address.offset + count),
      prev: address.offset === 0 || pageSize === null ? null : pageUri(address, Math.max(0, address.offset - pageSize)),
    }
  }

  #remember(key: string, count: number): void {
    this.#firstPageLength.delete(key)
    this.#firstPageLength.set(key, count)
    if (this.#firstPageLength.size > REMEMBERED_FEEDS) {
      this.#firstPageLength.delete(this.#firstPageLength.keys().next().value!)
    }
  }
}
