import { describe, expect, it } from 'vitest'
import { excerptOf } from './posts-text'

describe('excerptOf', () => {
  it('reads the words of the markup, with entities as the characters they stand for', () => {
    expect(excerptOf('<h2>Tram&nbsp;28</h2>\n<p>Up the hill &amp; <em>down</em> &#8212; &#x2014; &lt;again&gt;</p>')).toBe(
      'Tram 28 Up the hill & down — — <again>',
    )
  })

  it('leaves out scripts, styles and comments', () => {
    expect(excerptOf('<style>p { color: red }</style><p>Shown</p><script>alert(1)</script><!-- hidden -->')).toBe('Shown')
  })

  it('cuts a long text at a word, with an ellipsis', () => {
    const excerpt = excerptOf(`<p>${'word '.repeat(100)}</p>`, 32)
    expect(excerpt).toBe('word word word word word word…')
  })

  it('keeps an unknown entity as written', () => {
    expect(excerptOf('<p>&bogus; &#0;</p>')).toBe('&bogus; &#0;')
  })
})
