// The weblog's look for the preview, asked of the main process (which reads the weblog's page and caches it), once
// per weblog in a session: asked for as a draft opens, so that the Preview toggle finds it here.
import type { WeblogAddress, WeblogLook } from '../../../../src-shared/contract'
import { api } from '../../lib/api'

const looks = new Map<string, Promise<WeblogLook>>()

/** The look as last read; `refresh` reads the weblog's page again. A neutral look is asked for again next time. */
export function readWeblogLook({ accountId, weblogPostUri }: WeblogAddress, refresh: boolean): Promise<WeblogLook> {
  const key = `${accountId}\n${weblogPostUri}`
  const known = refresh ? undefined : looks.get(key)
  if (known) return known
  const look = api.preview.look({ accountId, weblogPostUri, refresh })
  looks.set(key, look)
  look.then(
    (read) => read.style === null && looks.delete(key),
    () => looks.delete(key),
  )
  return look
}
