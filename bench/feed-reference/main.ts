// The feed benchmark's reference: the same virtualiser with the same options, drawing the same rows as plain text
// (no sanitising, no links, no accessibility work, no memoised rows), taking the same news and insertions. The bench drives it with
// window.benchReference.
import { useVirtualizer } from '@tanstack/react-virtual'
import { createElement as h, useReducer, useRef } from 'react'
import { createRoot } from 'react-dom/client'
import { excerptOf, titleOf, type BenchFriend } from '../feed-data'

interface ListState {
  friend: BenchFriend
  origin: string
  /** Rows in the list; row i draws event number `top - i`. */
  count: number
  top: number
  pending: number
}

const ESTIMATED_ROW_HEIGHT = 132
const OVERSCAN = 6

let state: ListState | null = null
let render = () => {}
const keyAt = (index: number) => state!.top - index

function List() {
  const [, rerender] = useReducer((x: number) => x + 1, 0)
  render = rerender
  const scroller = useRef<HTMLDivElement>(null)
  const list = state!
  const virtualizer = useVirtualizer({
    count: list.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    getItemKey: keyAt,
    overscan: OVERSCAN,
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
    anchorTo: 'end',
  })
  const insert = () => {
    list.top += list.pending
    list.count += list.pending
    list.pending = 0
    rerender()
  }
  const avatar = `${list.origin}/avatars/${list.friend.username}/50si.svg`
  return h(
    'div',
    { className: 'viewport' },
    list.pending > 0 && h('button', { className: 'pill', onClick: insert }, `${list.pending} new`),
    h(
      'div',
      { ref: scroller, className: 'scroller', role: 'feed' },
      h(
        'div',
        { ref: virtualizer.containerRef, className: 'rows' },
        virtualizer.getVirtualItems().map((item) => {
          const number = list.top - item.index
          return h(
            'article',
            { key: item.key, ref: virtualizer.measureElement, 'data-index': item.index, className: 'row' },
            h('img', { src: avatar, width: 40, height: 40, alt: '' }),
            h(
              'div',
              null,
              h('p', null, `${list.friend.displayName} posted “${titleOf(number)}”`),
              h('p', null, `${list.top - number + 1} min ago`),
              h('p', null, excerptOf(number)),
            ),
          )
        }),
      ),
    ),
  )
}

declare global {
  interface Window {
    benchReference: {
      mount(origin: string, friend: BenchFriend, count: number): void
      news(count: number): void
    }
  }
}

window.benchReference = {
  mount(origin, friend, count) {
    state = { friend, origin, count, top: count - 1, pending: 0 }
    createRoot(document.getElementById('root')!).render(h(List))
  },
  news(count) {
    state!.pending += count
    render()
  },
}
