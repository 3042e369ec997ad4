import { describe, expect, it } from 'vitest'
import { plainTextOf } from './plain-text'

describe('plainTextOf', () => {
  it('joins the words of inline markup as the page does, and separates blocks', () => {
    expect(plainTextOf('<p>In short: <em>early nights</em>, then <a href="/x">fewer</a> screens.</p>')).toBe(
      'In short: early nights, then fewer screens.',
    )
    expect(plainTextOf('<h2>If you go</h2><p>Fell asleep</p><ul><li>a couchette</li><li>breakfast</li></ul>')).toBe(
      'If you go Fell asleep a couchette breakfast',
    )
    expect(plainTextOf('<b>B</b>log<br>post<img src="a.jpg">caption')).toBe('Blog post caption')
  })

  it('reads character references, named and numbered, as the characters they stand for', () => {
    expect(plainTextOf('It&rsquo;s&nbsp;here &amp; &#8212; &#x2014; &lt;b&gt; &bogus; &#0;')).toBe('It’s here & — — <b> &bogus; \ufffd')
  })

  it('leaves out scripts, styles, templates and comments, closed or not', () => {
    expect(plainTextOf('<style>p { color: red }</style><p>Shown</p><script>alert(1)</script><!-- hidden --><template>t</template>')).toBe('Shown')
    expect(plainTextOf('<p>Shown <script>never')).toBe('Shown')
    expect(plainTextOf('<p>Shown <!-- never')).toBe('Shown')
  })

  it('reads a quoted attribute to its end, even with a ">" in it', () => {
    expect(plainTextOf('<a title="1 > 0" href="/">link</a> and <abbr title=\'a>b\'>text</abbr>')).toBe('link and text')
  })

  it('keeps a "<" that starts no tag, and turns control characters into spaces', () => {
    expect(plainTextOf('a < b and c > d')).toBe('a < b and c > d')
    expect(plainTextOf('one\u0001two\u0002three\n\n four')).toBe('one two three four')
  })

  it('may stop reading once it has enough text, giving the same opening', () => {
    const html = `<p>First words &amp; more.</p>${'<p>Then   a\n   long post.</p>\n'.repeat(50_000)}`
    const whole = plainTextOf(html)
    const opening = plainTextOf(html, 100)
    expect(opening.length).toBeGreaterThan(100)
    expect(opening.length).toBeLessThan(whole.length / 100)
    expect(whole.startsWith(opening)).toBe(true)
  })
})
