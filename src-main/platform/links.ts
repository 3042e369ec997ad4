// The one way out of Blogdesk to the browser. Only web pages go: `file:`, `javascript:` and custom schemes could run
// or open things on this computer, and the renderer, which asks, shows remote content.
import { shell } from 'electron'
import { CoreError } from '../core'

export function isWebLink(url: string): boolean {
  if (!URL.canParse(url)) return false
  const { protocol } = new URL(url)
  return protocol === 'http:' || protocol === 'https:'
}

/** Opens an http(s) URL in the person's browser; refuses anything else. */
export async function openExternal(url: string): Promise<void> {
  if (!isWebLink(url)) {
    const shown = url.length > 80 ? `${url.slice(0, 80)}…` : url
    throw new CoreError('invalid-argument', `Blogdesk opens only web links (http or https) in the browser, not "${shown}".`)
  }
  // Parsed and re-serialised, so the browser gets exactly the URL that was checked.
  await shell.openExternal(new URL(url).href)
}
