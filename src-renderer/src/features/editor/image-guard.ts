// An image is removed only on purpose, and never without a word. Text typed while an image is selected goes next to
// it instead of over it; an image removed (Delete, Backspace, Cut) is announced, with the undo that brings it back.
import { Extension } from '@tiptap/react'
import type { Node as ProseMirrorNode } from '@tiptap/pm/model'
import { NodeSelection, Plugin, PluginKey, TextSelection, type Transaction } from '@tiptap/pm/state'
import { ReplaceAroundStep, ReplaceStep } from '@tiptap/pm/transform'
import { shortcut } from '../../lib/keys'

const UNDO_KEYS = shortcut('Mod-Z').shown

/** The images removed by the last change: by the transaction that made it and those appended to it (a trailing line). */
const removedImages = new PluginKey<number>('imageGuard')

export const ImageGuard = Extension.create({
  name: 'imageGuard',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: removedImages,
        // Counted over the ranges each transaction replaced, never the whole post: typing stays as fast.
        state: {
          init: () => 0,
          apply: (tr, removedBefore) => imagesRemovedBy(tr) + (tr.getMeta('appendedTransaction') ? removedBefore : 0),
        },
        props: {
          handleTextInput(view, _from, _to, text) {
            const { selection, schema } = view.state
            if (!(selection instanceof NodeSelection) || selection.node.isInline) return false
            // Into the paragraph right after the image when it is empty (the post's last line), else a new one.
            const next = view.state.doc.resolve(selection.to).nodeAfter
            const reuse = next?.isTextblock === true && next.content.size === 0
            const tr = view.state.tr
            if (reuse) tr.insertText(text, selection.to + 1)
            else tr.insert(selection.to, schema.nodes['paragraph']!.create(null, schema.text(text)))
            view.dispatch(tr.setSelection(TextSelection.create(tr.doc, selection.to + 1 + text.length)).scrollIntoView())
            return true
          },
        },
        view(view) {
          const announcer = document.createElement('div')
          announcer.className = 'visually-hidden'
          announcer.setAttribute('role', 'status')
          view.dom.after(announcer)
          return {
            update(view, before) {
              const removed = removedImages.getState(view.state) ?? 0
              if (view.state.doc !== before.doc && removed > 0) announcer.textContent = removedMessage(removed)
            },
            destroy: () => announcer.remove(),
          }
        },
      }),
    ]
  },
})

function removedMessage(count: number): string {
  const what = count === 1 ? 'Image removed' : `${count} images removed`
  return `${what}. ${UNDO_KEYS} brings ${count === 1 ? 'it' : 'them'} back.`
}

/** Images the transaction took out of the post, less those it put in (an image dragged elsewhere is not removed). */
function imagesRemovedBy(tr: Transaction): number {
  let removed = 0
  tr.steps.forEach((step, index) => {
    const doc = tr.docs[index]!
    if (step instanceof ReplaceAroundStep) {
      removed += imagesBetween(doc, step.from, step.gapFrom) + imagesBetween(doc, step.gapTo, step.to) - imagesIn(step.slice.content)
    } else if (step instanceof ReplaceStep) {
      removed += imagesBetween(doc, step.from, step.to) - imagesIn(step.slice.content)
    }
  })
  return removed
}

function imagesBetween(doc: ProseMirrorNode, from: number, to: number): number {
  let count = 0
  if (from < to) doc.nodesBetween(from, to, (node) => void (node.type.name === 'image' && count++))
  return count
}

function imagesIn(content: ProseMirrorNode['content']): number {
  let count = 0
  content.descendants((node) => void (node.type.name === 'image' && count++))
  return count
}
