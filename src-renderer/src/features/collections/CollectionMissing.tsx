import { Alert, ErrorNotice, Pane, Spinner } from '../../ui'
import { useCollectionsStore, type CollectionKind } from './store'

const WORDS: Record<CollectionKind, { noun: string; listed: string }> = {
  albums: { noun: 'album', listed: 'photo albums' },
  lists: { noun: 'list', listed: 'lists' },
}

/** What an album or list pane shows until its collection is in the account's listing: loading, failed, or gone. */
export function CollectionMissing({ accountId, kind }: { accountId: string; kind: CollectionKind }) {
  const listing = useCollectionsStore((state) => state.listings[accountId]?.[kind])
  const loadListing = useCollectionsStore((state) => state.load)
  const { noun, listed } = WORDS[kind]
  if (listing?.status === 'failed') {
    return (
      <Pane layout="narrow">
        <ErrorNotice error={listing.error} onRetry={() => void loadListing(accountId, kind, { refresh: true })} />
      </Pane>
    )
  }
  if (listing?.status === 'loaded') {
    return (
      <Pane layout="narrow">
        <Alert tone="warning" title={`${noun.charAt(0).toUpperCase()}${noun.slice(1)} not found`}>
          <p>{listing.value.problem ?? `This ${noun} is no longer among the account’s ${listed}. Choose another one in the sidebar.`}</p>
        </Alert>
      </Pane>
    )
  }
  return (
    <Pane layout="centered">
      <Spinner label={`Loading the ${noun}…`} />
    </Pane>
  )
}
