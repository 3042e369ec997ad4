// A link's site title comes from the page's <title>.
import { HTML_TYPES, pageTitle } from './html'
import type { PageTitleReader } from './index'
import type { SafeFetcher } from './safe-fetch'

export class HtmlPageTitles implements PageTitleReader {
  readonly #fetcher: SafeFetcher

  constructor(fetcher: SafeFetcher) {
    this.#fetcher = fetcher
  }

  async titleOf(url: string, signal?: AbortSignal): Promise<string | null> {
    const page = await this.#fetcher.fetchText(url, HTML_TYPES, signal)
    return pageTitle(page.text)
  }
}
