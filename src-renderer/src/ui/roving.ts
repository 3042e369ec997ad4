// Roving tabindex, as WAI-ARIA's toolbar and menu patterns have it: a group of controls is one Tab stop, and the arrow
// keys, Home and End move the focus inside it. The control last focused keeps the group's Tab stop.
import { useCallback, useLayoutEffect, useRef, type FocusEvent, type KeyboardEvent, type RefObject } from 'react'

export type Orientation = 'horizontal' | 'vertical'

/** Marks an element as one of the group's controls. */
export const ROVING_ITEM = { 'data-roving-item': '' } as const

/**
 * Where `key` moves the focus among `count` controls from the one at `index` (-1: none of them): on and back wrap
 * around, Home and End go to the ends. Null when the key is not one of the pattern's, or there is nowhere to go.
 */
export function rovingTarget(index: number, count: number, key: string, orientation: Orientation): number | null {
  if (count === 0) return null
  const [back, on] = orientation === 'horizontal' ? ['ArrowLeft', 'ArrowRight'] : ['ArrowUp', 'ArrowDown']
  switch (key) {
    case back:
      return index <= 0 ? count - 1 : index - 1
    case on:
      return index === -1 || index === count - 1 ? 0 : index + 1
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return null
  }
}

/** The group's own controls (a menu inside a toolbar is a group of its own). */
function itemsOf(group: HTMLElement): HTMLElement[] {
  return [...group.querySelectorAll<HTMLElement>('[data-roving-item]')].filter((item) => item.parentElement?.closest('[data-roving-group]') === group)
}

/** The group's controls a person can reach now: not disabled, and drawn (an overflowed control is not). */
function reachableItems(group: HTMLElement): HTMLElement[] {
  return itemsOf(group).filter((item) => !(item as HTMLButtonElement).disabled && item.checkVisibility({ visibilityProperty: true }))
}

/** Marks the element holding a group's controls. */
export const ROVING_GROUP = { 'data-roving-group': '' } as const

/**
 * Makes the element `ref` holds a roving group: put ROVING_GROUP, `onKeyDown` and `onFocus` on it and ROVING_ITEM on
 * its controls.
 * After every render exactly one reachable control is a Tab stop: the last focused, or the first when that one went
 * away, was disabled or overflowed.
 */
export function useRovingFocus<T extends HTMLElement>(
  ref: RefObject<T | null>,
  orientation: Orientation,
): {
  onKeyDown(event: KeyboardEvent<T>): void
  onFocus(event: FocusEvent<T>): void
} {
  const current = useRef<HTMLElement | null>(null)

  const placeTabStop = useCallback(() => {
    const group = ref.current
    if (!group) return
    const reachable = reachableItems(group)
    if (!current.current || !reachable.includes(current.current)) current.current = reachable[0] ?? null
    for (const item of itemsOf(group)) item.tabIndex = item === current.current ? 0 : -1
  }, [ref])

  useLayoutEffect(placeTabStop)

  const onFocus = useCallback(
    (event: FocusEvent<T>) => {
      if (!(event.target instanceof HTMLElement) || !itemsOf(event.currentTarget).includes(event.target)) return
      current.current = event.target
      placeTabStop()
    },
    [placeTabStop],
  )

  const onKeyDown = useCallback(
    (event: KeyboardEvent<T>) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
      const group = ref.current
      if (!group || !(event.target instanceof HTMLElement)) return
      const reachable = reachableItems(group)
      if (!reachable.includes(event.target)) return
      const target = rovingTarget(reachable.indexOf(event.target), reachable.length, event.key, orientation)
      if (target === null) return
      event.preventDefault()
      reachable[target]!.focus()
    },
    [ref, orientation],
  )

  return { onKeyDown, onFocus }
}
