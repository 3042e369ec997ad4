// Find and replace in the post. The matches are found once when the query changes; afterwards each change to the text
// moves them (and their highlights) along with it, and only the paragraphs it touched are searched again, so typing
// with the find bar open and hundreds of matches costs what the change costs, not the post's length. Only the matches
// on screen and a screenful either side are highlighted, and the highlights follow the pane as it scrolls: each one
// drawn is more for the browser to lay out and to read out to input methods at every keystroke.
import { Extension } from '@tiptap/react'
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import { Plugin, PluginKey, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state'
import { Decoration, DecorationSet, type EditorView } from '@tiptap/pm/view'
import { blocksWithin, firstIndex, paneBandOf, scrollerOf, type Band } from './scroll-pane'

export interface FindQuery {
  text: string
  matchCase: boolean
  wholeWord: boolean
}

export interface Match {
  from: number
  to: number
}

export interface FindState {
  query: FindQuery | null
  /** In document order. */
  matches: Match[]
  /** The match the writer is on (selected in the text), or -1. */
  current: number
  /** The part of the post whose matches are highlighted (the current one always is). */
  shown: Match
  decorations: DecorationSet
}

type FindAction =
  | { kind: 'search'; query: FindQuery | null; shown: Match }
  | { kind: 'go'; index: number; shown: Match }
  | { kind: 'show'; shown: Match }

const findKey = new PluginKey<FindState>('find')

/** Highlights drawn all through the post: where no pane tells which part of it can be seen. */
const EVERYWHERE: Match = { from: 0, to: Number.MAX_SAFE_INTEGER }

const CLOSED: FindState = { query: null, matches: [], current: -1, shown: EVERYWHERE, decorations: DecorationSet.empty }

export const FindInPost = Extension.create({
  name: 'findInPost',
  addProseMirrorPlugins() {
    return [findPlugin()]
  },
})

export function findPlugin(): Plugin<FindState> {
  return new Plugin<FindState>({
    key: findKey,
    state: {
      init: () => CLOSED,
      apply: (tr, state, _before, after) => nextState(tr, state, after),
    },
    props: {
      decorations: (state) => findKey.getState(state)?.decorations,
    },
    view: (view) => highlightsFollowingThePane(view),
  })
}

/** How far beyond what the pane shows matches are highlighted, in pane heights: scrolling a little draws nothing new. */
const SHOWN_BEYOND_THE_PANE = 1

/**
 * Moves the highlighted part of the post along as the pane scrolls (or the window is resized) past it. Heard as the
 * scroll is drawn, before the frame that shows it.
 */
function highlightsFollowingThePane(view: EditorView): { destroy(): void } {
  const follow = (event: Event) => {
    if (event.type === 'scroll' && !(event.target instanceof Node && event.target.contains(view.dom))) return
    const { query, shown } = findStateOf(view.state)
    if (!query?.text || !view.dom.isConnected) return
    const pane = paneBandOf(scrollerOf(view.dom))
    const onScreen = blocksWithin(view, pane)
    if (onScreen.from >= shown.from && onScreen.to <= shown.to) return
    view.dispatch(showing(view.state.tr, shownAround(view, pane)))
  }
  // Scroll events do not bubble: heard on their way down, from whichever pane scrolls the text.
  document.addEventListener('scroll', follow, { capture: true, passive: true })
  window.addEventListener('resize', follow)
  return {
    destroy() {
      document.removeEventListener('scroll', follow, { capture: true })
      window.removeEventListener('resize', follow)
    },
  }
}

/** The part of the post in `band` and the height of `pane` (the band the pane shows, `band` by default) either side of it. */
function shownAround(view: EditorView, band: Band, pane: Band = band): Match {
  const beyond = (pane.bottom - pane.top) * SHOWN_BEYOND_THE_PANE
  return blocksWithin(view, { top: band.top - beyond, bottom: band.bottom + beyond })
}

/** The part to highlight around `match` once the pane has scrolled to it, wherever in the pane it ends up. */
function shownAroundMatch(view: EditorView, match: Match): Match {
  const pane = paneBandOf(scrollerOf(view.dom))
  const height = pane.bottom - pane.top
  const start = view.coordsAtPos(match.from)
  return shownAround(view, { top: start.top - height, bottom: start.bottom + height }, pane)
}

export function findStateOf(state: EditorState): FindState {
  return findKey.getState(state) ?? CLOSED
}

/**
 * Makes the transaction search the post for `query` (null: stop searching), highlighting the matches in `shown` (by
 * default all of them).
 */
export function searching(tr: Transaction, query: FindQuery | null, shown: Match = EVERYWHERE): Transaction {
  return tr.setMeta(findKey, { kind: 'search', query, shown } satisfies FindAction)
}

/** Makes the transaction highlight the matches in `shown`, and no others but the current one. */
export function showing(tr: Transaction, shown: Match): Transaction {
  return tr.setMeta(findKey, { kind: 'show', shown } satisfies FindAction)
}

/** Searches the post for `query` (null: stops searching), and goes to the first match after the caret. */
export function search(view: EditorView, query: FindQuery | null): void {
  view.dispatch(searching(view.state.tr, query, shownAround(view, paneBandOf(scrollerOf(view.dom)))))
  const { matches } = findStateOf(view.state)
  if (matches.length === 0) return
  const after = matches.findIndex((match) => match.from >= view.state.selection.from)
  goToMatch(view, after === -1 ? 0 : after)
}

/** Selects the match `index` (wrapping around at either end) and scrolls to it. */
export function goToMatch(view: EditorView, index: number): void {
  const { matches } = findStateOf(view.state)
  if (matches.length === 0) return
  const at = ((index % matches.length) + matches.length) % matches.length
  const match = matches[at]!
  const tr = view.state.tr.setMeta(findKey, { kind: 'go', index: at, shown: shownAroundMatch(view, match) } satisfies FindAction)
  view.dispatch(tr.setSelection(TextSelection.create(tr.doc, match.from, match.to)).scrollIntoView())
  // ProseMirror scrolls only to a selection the page's own selection is in; from the find bar it is not.
  if (!view.hasFocus()) view.someProp('handleScrollToSelection', (scroll) => scroll(view))
}

/** Replaces the current match and goes to the next one. */
export function replaceCurrent(view: EditorView, replacement: string): void {
  const { matches, current } = findStateOf(view.state)
  const match = matches[current]
  if (!match) return
  view.dispatch(view.state.tr.insertText(replacement, match.from, match.to))
  const { matches: left } = findStateOf(view.state)
  const next = left.findIndex((candidate) => candidate.from >= match.from + replacement.length)
  goToMatch(view, next === -1 ? 0 : next)
}

/** Replaces every match, as one change: one undo puts them all back. Returns how many were replaced. */
export function replaceAll(view: EditorView, replacement: string): number {
  const { matches } = findStateOf(view.state)
  if (matches.length === 0) return 0
  const tr = view.state.tr
  // From the last to the first, so the positions of those not yet replaced still hold.
  for (let index = matches.length - 1; index >= 0; index--) tr.insertText(replacement, matches[index]!.from, matches[index]!.to)
  view.dispatch(tr.scrollIntoView())
  return matches.length
}

/**
 * A change of more steps than this (Replace all, a paste of many paragraphs) is followed by a new search of the whole
 * post: following each step costs more, and the change is not a keystroke.
 */
const STEPS_FOLLOWED = 40

function nextState(tr: Transaction, state: FindState, after: EditorState): FindState {
  const action = tr.getMeta(findKey) as FindAction | undefined
  if (action?.kind === 'search') return searchedState(after.doc, action.query, action.shown)
  let next = state
  if (tr.docChanged && state.query !== null && state.query.text !== '') {
    next = tr.steps.length > STEPS_FOLLOWED ? searchedState(after.doc, state.query, mapShown(tr, state.shown)) : followChange(tr, state, state.query)
  }
  if (action?.kind === 'show' || action?.kind === 'go') next = shownState(next, action.shown, tr.doc)
  if (action?.kind === 'go') next = withCurrent(next, action.index, tr.doc)
  return next
}

function searchedState(doc: ProseMirrorNode, query: FindQuery | null, shown: Match): FindState {
  if (query === null || query.text === '') return { ...CLOSED, query }
  const matches = findMatches(doc, query, 0, doc.content.size)
  return { query, matches, current: -1, shown, decorations: DecorationSet.create(doc, within(matches, shown).map(highlight)) }
}

/** The state highlighting the matches in `shown` (and the current one) instead. */
function shownState(state: FindState, shown: Match, doc: ProseMirrorNode): FindState {
  const decorations = DecorationSet.create(doc, within(state.matches, shown).map(highlight))
  return withCurrent({ ...state, shown, current: -1, decorations }, state.current, doc)
}

/** The part shown, moved with the text; what was typed at either end of it is in it. */
function mapShown(tr: Transaction, shown: Match): Match {
  if (shown === EVERYWHERE) return shown
  return { from: tr.mapping.map(shown.from, -1), to: tr.mapping.map(shown.to, 1) }
}

/** The matches (in document order) that start in `range`, found by halving. */
function within(matches: Match[], { from, to }: Match): Match[] {
  const first = firstIndex(matches.length, (index) => matches[index]!.from >= from)
  const end = firstIndex(matches.length, (index) => matches[index]!.from >= to)
  return matches.slice(first, end)
}

/**
 * The matches after a change: moved with the text around them, those in the changed paragraphs found again. The
 * highlights are moved too, not drawn anew.
 */
function followChange(tr: Transaction, state: FindState, query: FindQuery): FindState {
  const { doc } = tr
  const blocks = changedTextblocks(tr)
  const inChanged = (match: Match) => blocks.some((block) => match.from < block.to && match.to > block.from)
  const moved: Match[] = []
  for (const match of state.matches) {
    const from = tr.mapping.mapResult(match.from, 1)
    const to = tr.mapping.mapResult(match.to, -1)
    if (from.deleted || to.deleted || to.pos <= from.pos) continue
    const mapped = { from: from.pos, to: to.pos }
    if (!inChanged(mapped)) moved.push(mapped)
  }
  const found = blocks.flatMap((block) => findMatches(doc, query, block.from, block.to))
  const matches = [...moved, ...found].sort((a, b) => a.from - b.from)
  const shown = mapShown(tr, state.shown)
  let decorations = state.decorations.map(tr.mapping, doc)
  for (const block of blocks) decorations = decorations.remove(decorations.find(block.from, block.to))
  decorations = decorations.add(doc, found.filter((match) => match.from >= shown.from && match.from < shown.to).map(highlight))
  // The match the writer was on stays current while it is there; its highlight is drawn again if its paragraph was searched again.
  const before = state.matches[state.current]
  const was = before && { from: tr.mapping.map(before.from, 1), to: tr.mapping.map(before.to, -1) }
  const current = was ? matches.findIndex((match) => match.from === was.from) : -1
  return withCurrent({ query, matches, current: -1, shown, decorations }, current, doc, was)
}

/** The ranges of the textblocks a transaction changed, in the document it made. */
function changedTextblocks(tr: Transaction): Match[] {
  const blocks = new Map<number, Match>()
  const { doc, mapping } = tr
  mapping.maps.forEach((stepMap, index) => {
    stepMap.forEach((_oldFrom, _oldTo, newFrom, newTo) => {
      const from = mapping.slice(index + 1).map(newFrom, -1)
      const to = mapping.slice(index + 1).map(newTo, 1)
      const $from = doc.resolve(from)
      if ($from.parent.isTextblock) blocks.set($from.start(), { from: $from.start(), to: $from.end() })
      doc.nodesBetween(from, Math.max(to, from + 1), (node, pos) => {
        if (!node.isTextblock) return true
        blocks.set(pos + 1, { from: pos + 1, to: pos + 1 + node.content.size })
        return false
      })
    })
  })
  return [...blocks.values()]
}

/**
 * The state with the match `index` as the current one (-1: none), drawn as such; the current highlight drawn until now
 * is at `was` (by default, the state's current match).
 */
function withCurrent(state: FindState, index: number, doc: ProseMirrorNode, was: Match | undefined = state.matches[state.current]): FindState {
  const after = state.matches[index]
  let decorations = state.decorations
  if (was) decorations = decorations.remove(decorations.find(was.from, was.to, isCurrent))
  if (after) decorations = decorations.add(doc, [Decoration.inline(after.from, after.to, { class: 'find-match--current' }, CURRENT)])
  return { ...state, current: after ? index : -1, decorations }
}

const CURRENT = { current: true }
const isCurrent = (spec: { current?: boolean }) => spec.current === true

function highlight(match: Match): Decoration {
  return Decoration.inline(match.from, match.to, { class: 'find-match' })
}

/** A stand-in for an inline node that is not text (a line break), one position wide as the node is. */
const LEAF = '\uFFFC'

/** The matches of `query` in the textblocks between `from` and `to`, in document order. */
export function findMatches(doc: ProseMirrorNode, query: FindQuery, from: number, to: number): Match[] {
  const pattern = patternOf(query)
  const matches: Match[] = []
  doc.nodesBetween(from, to, (node, pos) => {
    if (!node.isTextblock) return true
    const text = node.textBetween(0, node.content.size, undefined, LEAF)
    const start = pos + 1
    pattern.lastIndex = 0
    for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
      matches.push({ from: start + found.index, to: start + found.index + found[0].length })
    }
    return false
  })
  return matches
}

const patterns = new WeakMap<FindQuery, RegExp>()

function patternOf(query: FindQuery): RegExp {
  let pattern = patterns.get(query)
  if (!pattern) {
    const escaped = query.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    // A whole word has no letter, digit or joining mark right before or after it.
    const source = query.wholeWord ? `(?<![\\p{L}\\p{N}\\p{M}_])${escaped}(?![\\p{L}\\p{N}\\p{M}_])` : escaped
    pattern = new RegExp(source, query.matchCase ? 'gu' : 'giu')
    patterns.set(query, pattern)
  }
  return pattern
}
