import { describe, expect, test } from 'vitest'
import { isWellFormedMarkup } from './index'

describe('isWellFormedMarkup', () => {
  test.each([
    ['nothing', ''],
    ['plain text', 'Just words, with “quotes” and ünïcödé.'],
    ['paragraphs with references', '<p>Fish &amp; chips &#8212; &#x263A; &lt;3</p><p>Second</p>'],
    ['self-closing elements and single-quoted attributes', `<img src='a.jpg' alt="a > b"/><br/>`],
    ['comments, CDATA and processing instructions', '<!-- note --><![CDATA[<raw> & ]]><?php echo 1 ?>'],
    ['text around elements', 'Before <em>middle</em> after'],
    ['an element in its own namespace', '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>'],
    ['a prefix it declares itself', '<m:math xmlns:m="http://www.w3.org/1998/Math/MathML"><m:mi>x</m:mi></m:math>'],
    ['xml:lang, which needs no declaration', '<p xml:lang="fr">Bonjour</p>'],
    ['emoji (surrogate pairs)', '<p>😀 👍🏽</p>'],
  ])('accepts %s', (_case, fragment) => {
    expect(isWellFormedMarkup(fragment)).toBe(true)
  })

  test.each([
    ['an unclosed element', '<p>open'],
    ['a stray closing tag', 'text</p>'],
    ['crossed tags', '<b><i>x</b></i>'],
    ['HTML void elements written as HTML', 'line<br>next'],
    ['an HTML entity', 'a&nbsp;b'],
    ['a bare ampersand', 'fish & chips'],
    ['a bare "<"', 'a < b'],
    ['an unquoted attribute', '<a href=x>y</a>'],
    ['an undeclared prefix', '<fb:like/>'],
    ['an attempt to close the wrapper and open another', 'a</div><div>b'],
    ['an attempt to hide the wrapper’s end in a comment', 'a</div><!--'],
    ['an XML declaration', '<?xml version="1.0"?><p/>'],
    ['a DOCTYPE', '<!DOCTYPE html><p/>'],
    ['"]]>" in text', 'a ]]> b'],
    ['a control character', 'bell\u0007'],
    ['a lone surrogate', 'half \uD83D of an emoji'],
  ])('refuses %s', (_case, fragment) => {
    expect(isWellFormedMarkup(fragment)).toBe(false)
  })

  test('nesting is limited so the markup can always be read back inside a feed entry', () => {
    const nested = (levels: number) => '<i>'.repeat(levels) + '</i>'.repeat(levels)
    expect(isWellFormedMarkup(nested(60))).toBe(true)
    expect(isWellFormedMarkup(nested(61))).toBe(false)
  })
})
