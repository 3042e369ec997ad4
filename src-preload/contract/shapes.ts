// The shapes that cross the IPC boundary. Plain data only: they are structured-cloned between processes.

/** An account as the renderer sees it: never its secrets. */
export interface AccountSummary {
  id: string
  /** What the person reads in the sidebar, e.g. "melody @ 127.0.0.1:4567". */
  label: string
  atomBase: string
  username: string
}

export interface NewAccount {
  /**
   * Where the Atom interface is: the origin `/t/atom/weblog` hangs off, or the weblog root listing itself
   * (Movable Type's `…/mt-atom.cgi/weblog`). The core finds the listing from either.
   */
  atomBase: string
  username: string
  /** The API password used for WSSE, not the login password. */
  apiPassword: string
}

export interface WeblogRef {
  accountId: string
}

/** A weblog found in the root listing, with the URIs its links announce (absent when the server omits them). */
export interface Weblog {
  title: string
  postUri: string
  feedUri: string | null
  uploadUri: string | null
  categoriesUri: string | null
  homeUrl: string | null
}
