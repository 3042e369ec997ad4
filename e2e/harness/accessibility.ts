// axe-core over what the page shows now, with WCAG 2.2 AA's rules (and axe's best practices): every main screen is
// checked in light and dark, and a serious or critical violation fails the test with axe's own account of what is wrong and where.
// The dark theme changes colours only (every prefers-color-scheme block in the renderer's CSS sets colours), so in
// dark axe runs the rules that read colours; the others would see the same page again, at about 1.6 s a screen.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, type TestInfo } from '@playwright/test'

const BLOCKING = new Set(['serious', 'critical'])
const SCRIPTLESS_FRAMES = 'iframe[sandbox]:not([sandbox~="allow-scripts"])'
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

export async function expectAccessible(page: Page, testInfo: TestInfo, screen: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // The theme's colours change through CSS transitions: axe must see where they end, not a colour halfway there.
    await page.evaluate(() =>
      Promise.all(document.getAnimations().filter((animation) => animation instanceof CSSTransition).map((transition) => transition.finished)),
    )
    const axe = new AxeBuilder({ page })
    const results = await (colorScheme === 'light' ? axe.withTags(WCAG_22_AA) : axe.withRules(COLOUR_RULES))
      // axe runs inside each frame; one sandboxed without scripts (the post preview) never answers, and shows the
      // weblog's own page style rather than Blogdesk's.
      .exclude(SCRIPTLESS_FRAMES)
      .analyze()
    await testInfo.attach(`axe ${screen} (${colorScheme}).json`, {
      body: JSON.stringify(results.violations, null, 2),
      contentType: 'application/json',
    })
    const blocking = results.violations
      .filter((violation) => BLOCKING.has(violation.impact ?? ''))
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
    expect(blocking, `accessibility of ${screen} in ${colorScheme} mode`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: null })
}
