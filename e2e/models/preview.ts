// The post editor's preview as a person sees it: the Preview toggle, the line saying which style is shown, and the
// frame with the post in it (its document read as the browser drew it).
import { expect, type FrameLocator, type Locator, type Page } from '@playwright/test'

export class PreviewModel {
  readonly page: Page

  constructor(page: Page) {
    this.page = page
  }

  get toggle(): Locator {
    return this.page.getByRole('button', { name: 'Preview', exact: true })
  }

  get pane(): Locator {
    return this.page.getByRole('region', { name: 'Preview' })
  }

  /** What the preview says of its style: the weblog's (and when read), or a neutral one and why. */
  get about(): Locator {
    return this.pane.getByRole('status')
  }

  get readAgain(): Locator {
    return this.pane.getByRole('button', { name: 'Read the weblog’s style again' })
  }

  get frameElement(): Locator {
    return this.pane.locator('iframe')
  }

  get frame(): FrameLocator {
    return this.frameElement.contentFrame()
  }

  /** Waits until the frame shows the post with its styles given. */
  async ready(): Promise<void> {
    await expect(this.frameElement).toHaveAttribute('data-ready', 'true')
  }

  /** A computed style of the first element `selector` finds in the preview. */
  styleOf(selector: string, property: string): Promise<string> {
    return this.frame.locator(selector).first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property)
  }
}
