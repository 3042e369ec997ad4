import type { CollectionContents } from '../../../../src-shared/contract'

const WORDS = {
  albums: { heading: 'Photos', of: 'the album’s photos', verb: 'sent' },
  lists: { heading: 'Items', of: 'the list’s items', verb: 'added' },
}

/**
 * What an album's or a list's section shows and why: all it holds, as the server's feed lists it (and, when that could
 * not be read now, why and from when); or, where the server offers no such list, only what Blogdesk sent.
 */
export function CollectionContentsHeading({
  kind,
  contents,
  headingId,
}: {
  kind: 'albums' | 'lists'
  contents: CollectionContents<unknown> | null
  headingId: string
}) {
  const words = WORDS[kind]
  return (
    <div className="contents-heading">
      <h2 className="contents-heading__title" id={headingId}>
        {contents?.source === 'sent' ? 'Sent from Blogdesk' : words.heading}
      </h2>
      {contents?.source === 'sent' && (
        <p className="contents-heading__note">
          This server does not offer apps a list of {words.of}, so only those {words.verb} from Blogdesk show here; its web
          page shows them all.
        </p>
      )}
      {contents?.source === 'feed' && contents.problem && <p className="contents-heading__note">{contents.problem}</p>}
    </div>
  )
}
