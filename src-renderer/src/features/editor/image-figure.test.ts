// How the image node is written as HTML (image-figure.ts), over the editor's own image attributes: a bare <img> when
// nothing is set, a figure with its class, link and caption otherwise, and which images publishing asks about.
// (Reading HTML back needs a browser's DOM: e2e/images.spec.ts opens a published figure and finds the same properties.)
import { getSchema } from '@tiptap/core'
import Image from '@tiptap/extension-image'
import StarterKit from '@tiptap/starter-kit'
import { describe, expect, it } from 'vitest'
import { IMAGE_PARSE_RULES, imageAttributes, imagesWithoutAlt, propertiesOf, renderImage } from './image-figure'

const schema = getSchema([
  StarterKit,
  Image.extend({ addAttributes: imageAttributes, parseHTML: () => IMAGE_PARSE_RULES, renderHTML: ({ node }) => renderImage(node) }),
])
const SRC = `blogdesk-media:${'a'.repeat(64)}`
const image = (attrs: Record<string, unknown>) => schema.nodes['image']!.create({ src: SRC, ...attrs })

describe('an image of a post as HTML', () => {
  it('is a bare <img> with only the attributes set, alt="" kept for a decorative image', () => {
    expect(renderImage(image({ alt: 'A tram' }))).toEqual(['img', { src: SRC, alt: 'A tram' }])
    expect(renderImage(image({ alt: '' }))).toEqual(['img', { src: SRC, alt: '' }])
    expect(renderImage(image({}))).toEqual(['img', { src: SRC }])
    expect(renderImage(image({ alt: 'Wide', width: 640 }))).toEqual(['img', { src: SRC, alt: 'Wide', width: '640' }])
  })

  it('is a figure with its alignment class, link to the original and caption once any is set', () => {
    const all = image({ alt: 'A tram', width: 400, align: 'right', caption: 'The 28', link: SRC })
    expect(renderImage(all)).toEqual([
      'figure',
      { class: 'alignright' },
      ['a', { href: SRC }, ['img', { src: SRC, alt: 'A tram', width: '400' }]],
      ['figcaption', 'The 28'],
    ])
    expect(renderImage(image({ alt: '', caption: 'Only a caption' }))).toEqual(['figure', {}, ['img', { src: SRC, alt: '' }], ['figcaption', 'Only a caption']])
    expect(renderImage(image({ alt: 'x', align: 'full' }))).toEqual(['figure', { class: 'alignfull' }, ['img', { src: SRC, alt: 'x' }]])
    expect(propertiesOf(all)).toEqual({ src: SRC, alt: 'A tram', caption: 'The 28', align: 'right', width: 400, link: SRC })
  })

  it('asks at publish about images with no alt at all, never about decorative ones', () => {
    const doc = schema.nodes['doc']!.create(null, [
      schema.nodes['paragraph']!.create(null, schema.text('Before')),
      image({}),
      image({ alt: '' }),
      image({ alt: 'Described' }),
      schema.nodes['blockquote']!.create(null, image({})),
    ])
    expect(imagesWithoutAlt(doc).map(({ position }) => doc.nodeAt(position)!.attrs['alt'])).toEqual([null, null])
    expect(imagesWithoutAlt(doc)).toHaveLength(2)
  })
})
