// Why a lookup failed is worth knowing when debugging and noise otherwise (a failed lookup costs the client only a
// detail it did not send): it is printed only with NODE_DEBUG=blogdesk-lookup.
import { debuglog } from 'node:util'

export const debugLookup = debuglog('blogdesk-lookup')

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
