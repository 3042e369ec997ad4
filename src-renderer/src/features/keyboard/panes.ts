// F6 and Shift+F6 move the focus between the window's panes (sidebar, list, main pane), in the order the window shows
// them, skipping those not shown (the list where the main pane needs the room). Each pane remembers the control last
// focused in it, and gets the focus back there.

/** The attribute that marks a pane (AppShell sets it); its value names the pane. */
export const PANE_ATTRIBUTE = 'data-pane'
/** Marks the control a pane is entered at before anything in it was focused (the post's title in the editor). */
export const PANE_START_ATTRIBUTE = 'data-pane-start'

const TABBABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, [tabindex], [contenteditable="true"]'

/**
 * The pane F6 (`direction` 1) or Shift+F6 (-1) moves to, among `count` panes shown, from the one at `index` (-1: the
 * focus is in none of them, as on the skip link: F6 then goes to the first, Shift+F6 to the last).
 */
export function paneAfter(index: number, count: number, direction: 1 | -1): number | null {
  if (count === 0) return null
  if (index === -1) return direction === 1 ? 0 : count - 1
  return (index + direction + count) % count
}

const lastFocused = new WeakMap<Element, HTMLElement>()

function shownPanes(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(`[${PANE_ATTRIBUTE}]`)].filter((pane) => pane.checkVisibility({ visibilityProperty: true }))
}

function canTakeFocus(element: HTMLElement): boolean {
  return element.isConnected && !(element as HTMLButtonElement).disabled && element.checkVisibility({ visibilityProperty: true })
}

/** Where the focus goes in `pane`: where it last was, else its start, else its first Tab stop, else the pane itself. */
function landingIn(pane: HTMLElement): HTMLElement {
  const last = lastFocused.get(pane)
  if (last && pane.contains(last) && canTakeFocus(last)) return last
  const start = pane.querySelector<HTMLElement>(`[${PANE_START_ATTRIBUTE}]`)
  if (start && canTakeFocus(start)) return start
  const first = [...pane.querySelectorAll<HTMLElement>(TABBABLE)].find((element) => element.tabIndex >= 0 && canTakeFocus(element))
  if (first) return first
  if (!pane.hasAttribute('tabindex')) pane.tabIndex = -1
  return pane
}

/** Puts the focus in the pane named `name` ("main", "list", "sidebar"); false when it is not shown. */
export function focusPane(name: string): boolean {
  const pane = shownPanes().find((candidate) => candidate.getAttribute(PANE_ATTRIBUTE) === name)
  if (!pane) return false
  landingIn(pane).focus()
  return true
}

/** Moves the focus to the next pane (1) or the previous one (-1). */
export function cyclePanes(direction: 1 | -1): void {
  const panes = shownPanes()
  const active = document.activeElement
  const index = panes.findIndex((pane) => pane.contains(active))
  const target = paneAfter(index, panes.length, direction)
  if (target !== null) landingIn(panes[target]!).focus()
}

/** Remembers, for each pane, the control last focused in it. Returns the function that stops following. */
export function rememberFocusInPanes(): () => void {
  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof HTMLElement)) return
    const pane = event.target.closest(`[${PANE_ATTRIBUTE}]`)
    if (pane && event.target !== pane) lastFocused.set(pane, event.target)
  }
  document.addEventListener('focusin', onFocusIn)
  return () => document.removeEventListener('focusin', onFocusIn)
}
