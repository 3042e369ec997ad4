import { describe, expect, it } from 'vitest'
import { excerptOf } from './posts-text'

describe('excerptOf', () => {
  it('is the text of the markup as the page shows it', () => {
    expect(excerptOf('<h2>Tram&nbsp;28</h2>\n<p>Up the hill &amp; <em>down</em>, &#8212; &lt;again&gt;</p>')).toBe(
      'Tram 28 Up the hill & down, — <again>',
    )
  })

  it('cuts a long text at a word, with an ellipsis', () => {
    const excerpt = excerptOf(`<p>${'word '.repeat(100)}</p>`, 32)
    expect(excerpt).toBe('word word word word word word…')
  })

  it('is cut from the opening of a long post, however the post goes on', () => {
    const opening = '<p>Queued on a train, somewhere past Lyon.</p>'
    const post = `${opening}<p>${'More words, and more again. '.repeat(20_000)}</p>`
    expect(excerptOf(post, 40)).toBe('Queued on a train, somewhere past Lyon…')
  })

  it('finds the words behind a long run of empty, indented markup', () => {
    const post = `${'<p> </p>\n  '.repeat(1_000)}<p>${'Words at last. '.repeat(10)}</p>`
    expect(excerptOf(post, 40)).toBe('Words at last. Words at last. Words at…')
  })
})
