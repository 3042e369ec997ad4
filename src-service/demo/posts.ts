// The demo weblog's posts: five categories and four dozen posts spread over the months before the sandbox first
// started, so feeds page, categories filter and the public pages have something real-looking to show. Deterministic:
// the same data dir always gets the same posts, dated back from the moment it was seeded.
import { formatW3cDate } from '../../src-protocol'
import { escapeHtml } from '../public/page'
import type { Category, Store, Weblog } from '../store'

const CATEGORIES = { K: 'Kitchen', M: 'Music', N: 'Notes', P: 'Photography', T: 'Travel' } as const
type CategoryKey = keyof typeof CATEGORIES

/** Title, categories (keys of CATEGORIES), opening sentence, three points separated by "; ". Newest last. */
const SEEDS: readonly (readonly [string, string, string, string])[] = [
  ['Starting over, again', 'N', 'A new weblog, the third one since school, and this time I mean to keep it.', 'write on Sundays; short is fine; photos count as posts'],
  ['Fig and walnut bread', 'K', 'The first loaf was a brick; the second one was worth the flour.', '500 g flour and a long cold rise; figs soaked in tea; walnuts toasted first'],
  ['Listening to Histoire de Melody Nelson', 'M', 'Twenty-eight minutes, seven songs, and a bass line that never lets go.', 'Melody Nelson; Ballade de Melody Nelson; Cargo culte'],
  ['Morning light on the Seine', 'P,T', 'Up at six for the light, and it was worth every minute of lost sleep.', 'Pont des Arts at 6:40; fog lifting by seven; two rolls of Portra'],
  ['A week in Lisbon', 'T', 'Trams, tiles and the best custard tarts I have ever burnt my tongue on.', 'Alfama at dusk; the 28 tram early, before the crowds; Belém for the tarts'],
  ['Why I still shoot film', 'P', 'Thirty-six frames make me look harder at each one.', 'no screen to check; the wait is part of it; grain is kinder than noise'],
  ['Tomato season', 'K', 'Three kilos from the market and a whole afternoon to do something with them.', 'slow-roasted with thyme; a raw sauce for pasta; jars for winter'],
  ['Records I bought this month', 'M', 'The shop on the corner had a box of French pressings nobody wanted.', 'Jane Birkin, Di doo dah; Françoise Hardy, La question; Brigitte Fontaine, Comme à la radio'],
  ['Notes from a slow Sunday', 'N', 'No plans, no phone, one very long breakfast.', 'finished the crossword; mended the blue coat; walked to the river and back'],
  ['Marseille, the old port', 'T,P', 'Fishermen selling the morning catch a few steps from the ferries.', 'the fish market at eight; the Vieux-Port mirror canopy; bouillabaisse, once'],
  ['Learning the bass line of Ballade', 'M', 'It looks simple on paper and takes weeks in the fingers.', 'slow it down to half speed; mute with the right hand; play along with the record'],
  ['Ratatouille, done properly', 'K', 'Each vegetable cooked on its own, then together, and patience in between.', 'aubergine first; peppers charred; a night in the fridge before serving'],
  ['The camera I keep coming back to', 'P', 'An old rangefinder with a sticky shutter and a lens that glows.', 'quiet enough for cafés; zone focus at f/8; light meter in my head'],
  ['Train to the mountains', 'T', 'Six hours of windows, from vineyards to snow.', 'the dining car still exists; change at Lyon; bring a paper map'],
  ['On keeping a notebook', 'N', 'Everything I forget is in there, if I can read my handwriting.', 'date every page; lists on the left; drawings allowed'],
  ['Soupe au pistou', 'K', 'Summer in a bowl, and the pistou does all the work.', 'white beans and green beans; small pasta at the end; basil pounded with garlic'],
  ['Concert at the small church', 'M', 'A string quartet and two hundred people holding their breath.', 'Ravel first; Debussy after the interval; an encore nobody expected'],
  ['Contact sheets', 'P', 'Laying the roll out on one page shows what I was really looking at.', 'circle in red; star the keepers; most of it is practice'],
  ['Three days in Kyoto', 'T', 'Temples at opening time, and everywhere quiet by nine in the evening.', 'Fushimi Inari before seven; a tofu lunch; the Philosopher\'s Path in the rain'],
  ['Kitchen notes: salt', 'K,N', 'Most of what I used to get wrong in cooking was salt, and when to add it.', 'salt pasta water like the sea; season meat the day before; flaky salt at the table'],
  ['What the radio played', 'M', 'An evening of requests on the local station, and every one a surprise.', 'a Portuguese fado; an old Serge B-side; someone\'s wedding song'],
  ['Black and white, for a month', 'P', 'One film stock, one lens, thirty days.', 'see in tones, not colours; shadows matter more; the darkroom smell stays with you'],
  ['Walking the coast path', 'T', 'Twenty kilometres of cliffs, wind, and not a single café.', 'start at low tide; water, then more water; the bus back runs twice a day'],
  ['Moving the desk to the window', 'N', 'Small change, big difference: I write more with the sky in view.', 'morning light for reading; plants on the sill; the cat approves'],
  ['Apricot tart', 'K', 'The apricots were a little hard; the oven fixed that.', 'sweet shortcrust, blind-baked; apricots cut side up; a spoon of honey on top'],
  ['Vinyl versus the stream', 'M', 'I own both, and I listen differently to each.', 'whole albums on vinyl; discovery on the stream; the liner notes win'],
  ['Portraits of strangers', 'P', 'Asking is the hardest part, and most people say yes.', 'say why you want it; show them the back of the camera; send them a print'],
  ['Night ferry to Corsica', 'T', 'A cabin the size of a cupboard and the sunrise over the island.', 'book the cabin early; dinner on deck; Bastia at six in the morning'],
  ['A list of small pleasures', 'N', 'Collected over a week, written down before I forget them.', 'clean sheets; the first coffee; a letter with a real stamp'],
  ['Bread, week twelve', 'K', 'The starter finally behaves, and so does my timing.', 'feed at night; mix at eight; bake before lunch'],
  ['The lyrics of Cargo culte', 'M', 'A song about an aeroplane that never comes back, and what is left behind.', 'the choir; the slow fade; the last line, said rather than sung'],
  ['Developing at home', 'P', 'A changing bag, a tank, and the bathroom blacked out for an evening.', 'temperature matters; agitate gently; hang to dry away from dust'],
  ['Weekend in Brussels', 'T,K', 'Comics, waffles, and a beer list longer than the menu.', 'the comic strip walls; frites from a stand; a quiet hour in the Horta house'],
  ['Reading in winter', 'N', 'The short days are for long books.', 'one Russian novel; one book of poems; one I will not admit to'],
  ['Leek and potato soup', 'K', 'The soup my grandmother made every Tuesday, written down at last.', 'leeks sweated slowly; floury potatoes; a spoon of cream, no more'],
  ['Records for a rainy day', 'M', 'Some music only makes sense with water on the window.', 'Nick Drake, Pink Moon; Chet Baker, Sings; Arvo Pärt, Spiegel im Spiegel'],
  ['Shooting in the rain', 'P', 'Reflections everywhere, and the streets to myself.', 'a plastic bag over the camera; look down at puddles; umbrellas make shapes'],
  ['Lost in Venice', 'T', 'No map works there, so I stopped trying and just walked.', 'the early vaporetto; cicchetti at the counter; Burano for the colours'],
  ['Things I fixed this year', 'N', 'A short list, proudly kept.', 'the dripping tap; the bicycle brakes; a chair with a wobbly leg'],
  ['Pear and almond cake', 'K', 'Good pears, ground almonds, and a cake that keeps for days.', 'brown the butter; pears on top, pressed in; a low oven and patience'],
  ['Learning to read a score', 'M', 'Slowly, with a pencil and a lot of counting.', 'one clef at a time; sing the intervals; follow along with a recording'],
  ['The same tree, every month', 'P', 'A year of one plane tree from the same spot on the bridge.', 'same lens; same time of day; only the tree changes'],
  ['Sleeper train to Vienna', 'T', 'Fell asleep in Munich, woke up to coffee and the Danube.', 'a couchette with strangers; breakfast in a box; the Naschmarkt by ten'],
  ['Notes on a quiet month', 'N', 'Not much happened, and that was the point.', 'early nights; fewer screens; more letters'],
  ['Sunday roast chicken', 'K', 'The one dish everybody at the table agrees on.', 'dry the skin overnight; lemon and thyme inside; rest it before carving'],
  ['Playing with friends', 'M', 'Three of us, a borrowed drum kit, and a room above the café.', 'two covers and one of our own; too loud, then just right; next Thursday again'],
  ['Printing the best of the year', 'P', 'Twelve prints on the wall, and a hundred good ones left in the box.', 'pick with a friend; same size for all; matte paper'],
  ['Planning the summer trip', 'T,N', 'A map on the kitchen table and a list that keeps growing.', 'the coast road south; two nights in each place; no plans after six'],
]

const HEADINGS: Record<CategoryKey, string> = {
  K: 'What you need',
  M: 'On repeat',
  N: 'For the record',
  P: 'What I learned',
  T: 'If you go',
}

const LINKS: Record<CategoryKey, readonly [string, string]> = {
  K: ['https://en.wikipedia.org/wiki/French_cuisine', 'the French cuisine article'],
  M: ['https://en.wikipedia.org/wiki/Histoire_de_Melody_Nelson', 'Histoire de Melody Nelson'],
  N: ['https://en.wikipedia.org/wiki/Commonplace_book', 'commonplace books'],
  P: ['https://en.wikipedia.org/wiki/Rangefinder_camera', 'rangefinder cameras'],
  T: ['https://en.wikipedia.org/wiki/Slow_travel', 'slow travel'],
}

const QUOTES: readonly string[] = [
  'The details are not the details. They make the design.',
  'Not all those who wander are lost.',
  'Simplicity is the ultimate sophistication.',
  'What I cannot create, I do not understand.',
]

/** Files the demo weblog's categories and posts, each post with its NewAsset event. Run inside a transaction. */
export async function seedDemoPosts(store: Store, authorId: number, weblog: Weblog, now = new Date()): Promise<void> {
  const categories = new Map<CategoryKey, Category>()
  for (const [key, name] of Object.entries(CATEGORIES) as [CategoryKey, string][]) {
    categories.set(key, await store.categories.add(weblog.id, name))
  }

  for (const [index, [title, keys, lead, points]] of SEEDS.entries()) {
    const age = SEEDS.length - 1 - index
    // Every three days or so, at varying hours: a weblog kept by a person, not a clock.
    const issued = formatW3cDate(new Date(now.getTime() - (age * 75 + (index % 5) * 3 + 2) * 3_600_000))
    const categoryKeys = keys.split(',') as CategoryKey[]
    const plainText = index % 16 === 8
    const post = await store.posts.create(
      weblog.id,
      authorId,
      {
        title,
        content: plainText ? plainTextBody(lead, points) : markupBody(index, categoryKeys[0]!, lead, points),
        contentKind: plainText ? 'text' : 'xhtml',
        summary: lead,
        issued,
        categories: categoryKeys.map((key) => categories.get(key)!),
      },
      issued,
    )
    await store.events.record({ actorId: authorId, verb: 'NewAsset', objectType: 'Post', objectId: post.id, published: issued })
  }
}

/** Four shapes in turn, so the content covers headings, lists, quotes and links. */
function markupBody(index: number, category: CategoryKey, lead: string, points: string): string {
  const items = points.split('; ').map(escapeHtml)
  const [href, label] = LINKS[category]
  const link = `<a href="${href}">${escapeHtml(label)}</a>`
  const opening = `<p>${escapeHtml(lead)}</p>`
  switch (index % 4) {
    case 0:
      return `${opening}<h2>${HEADINGS[category]}</h2><ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul><p>More about ${link}, if you are curious.</p>`
    case 1:
      return `${opening}<blockquote><p>${escapeHtml(QUOTES[index % QUOTES.length]!)}</p></blockquote><p>I kept thinking of that: ${items.join(', ')}.</p>`
    case 2:
      return `<h2>${HEADINGS[category]}</h2>${opening}<ol>${items.map((item) => `<li>${item}</li>`).join('')}</ol>`
    default:
      return `${opening}<p>In short: <em>${items[0]}</em>, then ${items[1]}, and ${items[2]}. See also ${link}.</p>`
  }
}

function plainTextBody(lead: string, points: string): string {
  return `${lead}\n\n${points.split('; ').map((point) => `- ${point}`).join('\n')}`
}
