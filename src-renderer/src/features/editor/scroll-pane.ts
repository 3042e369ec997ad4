// The pane the post's text scrolls in, and the part of the post a band of it shows: for keeping the caret in view,
// paging, and drawing only the find highlights that can be seen.
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import type { EditorView } from '@tiptap/pm/view'

/** A band of the window, top to bottom, in CSS pixels from its top edge. */
export interface Band {
  top: number
  bottom: number
}

const scrollers = new WeakMap<HTMLElement, Element>()

/** The nearest ancestor that scrolls vertically, or the page; found once per editor while it stays in place. */
export function scrollerOf(element: HTMLElement): Element {
  const known = scrollers.get(element)
  if (known?.isConnected && known.contains(element)) return known
  let scroller: Element = document.scrollingElement ?? document.documentElement
  for (let at = element.parentElement; at; at = at.parentElement) {
    const { overflowY } = getComputedStyle(at)
    if (overflowY === 'auto' || overflowY === 'scroll') {
      scroller = at
      break
    }
  }
  scrollers.set(element, scroller)
  return scroller
}

/** The band of the window the pane shows. */
export function paneBandOf(scroller: Element): Band {
  if (scroller === document.scrollingElement) return { top: 0, bottom: window.innerHeight }
  const { top, bottom } = scroller.getBoundingClientRect()
  return { top, bottom }
}

/**
 * The range of the post's top-level blocks that reach into `band` (laid out where they are now, on screen or not),
 * found by halving: a few blocks measured, whatever the post's length. Empty (from = to) in an empty post.
 */
export function blocksWithin(view: EditorView, band: Band): { from: number; to: number } {
  const { doc } = view.state
  const starts: number[] = []
  doc.forEach((_node, offset) => starts.push(offset))
  if (starts.length === 0) return { from: 0, to: 0 }
  const rectOf = (index: number) => (view.nodeDOM(starts[index]!) as Element | null)?.getBoundingClientRect?.()
  // The first block ending below the band's top, and the last one starting above its bottom.
  const first = firstIndex(starts.length, (index) => (rectOf(index)?.bottom ?? -Infinity) >= band.top)
  const last = firstIndex(starts.length, (index) => (rectOf(index)?.top ?? -Infinity) > band.bottom) - 1
  const from = Math.min(first, starts.length - 1)
  const to = Math.max(last, from)
  return { from: starts[from]!, to: starts[to]! + (doc.child(to) as ProseMirrorNode).nodeSize }
}

/** The first index in [0, count) for which `holds` is true, `holds` being false then true along it; count if none. */
export function firstIndex(count: number, holds: (index: number) => boolean): number {
  let low = 0
  let high = count
  while (low < high) {
    const middle = (low + high) >>> 1
    if (holds(middle)) high = middle
    else low = middle + 1
  }
  return low
}
