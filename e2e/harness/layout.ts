// Does the window fit? Two checks over what the page draws now: no two visible text boxes overlap (each line of each
// text node, as Range.getClientRects gives it, clipped by every scrolling or clipping ancestor), and the window
// itself never scrolls sideways. Intentional overlays (an open modal dialog, a drawer, a popup list; anything marked
// `data-overlay`, plus what the caller names) are left out, with whatever text lies under them.
import { expect, type Page } from '@playwright/test'

export interface TextOverlap {
  a: string
  b: string
  /** The overlapping area, in CSS pixels. */
  area: number
}

/** Overlays every screen may show on purpose. */
const INTENTIONAL_OVERLAYS = ['dialog[open]', '[data-overlay]']

/** Boxes touching by less than this (anti-aliasing, a descender into the next line's box) are not an overlap. */
const TOLERANCE_PX = 2

export async function findTextOverlaps(page: Page, overlays: string[] = []): Promise<TextOverlap[]> {
  return page.evaluate(
    ({ overlaySelectors, tolerance }) => {
      type Box = { left: number; top: number; right: number; bottom: number }
      const intersect = (a: Box, b: Box): Box => ({
        left: Math.max(a.left, b.left),
        top: Math.max(a.top, b.top),
        right: Math.min(a.right, b.right),
        bottom: Math.min(a.bottom, b.bottom),
      })
      const isEmpty = (box: Box) => box.right - box.left <= 1 || box.bottom - box.top <= 1
      const window_: Box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight }

      const overlayElements = overlaySelectors.flatMap((selector) => [...document.querySelectorAll(selector)])
      const overlayBoxes = overlayElements.map((element) => element.getBoundingClientRect())

      /** What of the element's text can be seen: the window, cut by the element and every ancestor clipping its overflow. */
      const clipOf = (element: Element): Box => {
        let clip = window_
        for (let ancestor: Element | null = element; ancestor !== null; ancestor = ancestor.parentElement) {
          const style = getComputedStyle(ancestor)
          const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.contain.includes('paint')
          // Text for screen readers only is clipped to nothing (`clip` or `clip-path`).
          if (clips || style.clip !== 'auto' || style.clipPath !== 'none') {
            clip = intersect(clip, ancestor.getBoundingClientRect())
          }
        }
        return clip
      }

      const boxes: { text: string; node: Node; owner: Element; box: Box }[] = []
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent?.trim() ?? ''
        const owner = node.parentElement
        if (text === '' || owner === null) continue
        if (!owner.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue
        if (overlayElements.some((overlay) => overlay.contains(owner))) continue
        const clip = clipOf(owner)
        const range = document.createRange()
        range.selectNodeContents(node)
        for (const rect of range.getClientRects()) {
          const box = intersect(rect, clip)
          if (isEmpty(box)) continue
          if (overlayBoxes.some((overlay) => !isEmpty(intersect(box, overlay)))) continue
          boxes.push({ text: text.slice(0, 60), node, owner, box })
        }
      }

      const overlaps: { a: string; b: string; area: number }[] = []
      for (let i = 0; i < boxes.length; i += 1) {
        for (let j = i + 1; j < boxes.length; j += 1) {
          const a = boxes[i]!
          const b = boxes[j]!
          // The lines of one text node are the browser's own layout of it (an ellipsis may split a line in two).
          if (a.node === b.node) continue
          const common = intersect(a.box, b.box)
          const width = common.right - common.left
          const height = common.bottom - common.top
          if (width > tolerance && height > tolerance) {
            overlaps.push({ a: `${a.text} (${a.owner.className || a.owner.tagName})`, b: `${b.text} (${b.owner.className || b.owner.tagName})`, area: Math.round(width * height) })
          }
        }
      }
      return overlaps
    },
    { overlaySelectors: [...INTENTIONAL_OVERLAYS, ...overlays], tolerance: TOLERANCE_PX },
  )
}

/** How far the window itself scrolls sideways (0 when everything fits its width). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - document.documentElement.clientWidth)
}

/** The screen fits the window: no text drawn over text, no sideways scroll of the window. */
export async function expectFits(page: Page, screen: string, overlays: string[] = []): Promise<void> {
  expect(await findTextOverlaps(page, overlays), `text drawn over text on ${screen}`).toEqual([])
  expect(await horizontalOverflow(page), `the window scrolls sideways on ${screen}`).toBe(0)
}
