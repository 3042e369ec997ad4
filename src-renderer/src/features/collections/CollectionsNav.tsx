import { useEffect, useId } from 'react'
import type { CollectionListing } from '../../../../src-shared/contract'
import { ErrorNotice, NavItem, Spinner } from '../../ui'
import { useNavigation } from '../navigation'
import { LIST_TYPE_NAMES } from './listTypes'
import { followOutbox } from './outboxTracking'
import { useCollectionsStore, type CollectionKind } from './store'
import './collections-nav.css'

const SECTIONS: { kind: CollectionKind; heading: string; empty: string; loading: string }[] = [
  { kind: 'albums', heading: 'Photo albums', empty: 'No photo albums on this account.', loading: 'Loading photo albums…' },
  { kind: 'lists', heading: 'Lists', empty: 'No lists on this account.', loading: 'Loading lists…' },
]

/** The account's photo albums and typed lists in the sidebar; each opens in the main pane. */
export function CollectionsNav({ accountId }: { accountId: string }) {
  return (
    <div className="collections-nav">
      {SECTIONS.map((section) => (
        <CollectionsSection key={section.kind} accountId={accountId} {...section} />
      ))}
    </div>
  )
}

function CollectionsSection({ accountId, kind, heading, empty, loading }: { accountId: string } & (typeof SECTIONS)[number]) {
  const listing = useCollectionsStore((state) => state.listings[accountId]?.[kind])
  const load = useCollectionsStore((state) => state.load)
  const headingId = useId()

  useEffect(() => {
    void load(accountId, kind)
  }, [accountId, kind, load])

  // Something of this account just reached its server: a listing that could not be read before can be now.
  useEffect(
    () =>
      followOutbox((item) => {
        const current = useCollectionsStore.getState().listings[accountId]?.[kind]
        if (item.accountId === accountId && current?.status === 'loaded' && current.value.problem !== null) {
          void load(accountId, kind, { refresh: true })
        }
      }),
    [accountId, kind, load],
  )

  return (
    <section className="collections-nav__section" aria-labelledby={headingId}>
      <h3 className="collections-nav__heading" id={headingId}>
        {heading}
      </h3>
      {(!listing || listing.status === 'loading') && <Spinner label={loading} className="collections-nav__status" />}
      {listing?.status === 'failed' && (
        <ErrorNotice error={listing.error} onRetry={() => void load(accountId, kind, { refresh: true })} className="collections-nav__error" />
      )}
      {listing?.status === 'loaded' && (
        <Listing
          accountId={accountId}
          kind={kind}
          listing={listing.value}
          empty={empty}
          label={heading}
          onRetry={() => void load(accountId, kind, { refresh: true })}
        />
      )}
    </section>
  )
}

function Listing({
  accountId,
  kind,
  listing,
  empty,
  label,
  onRetry,
}: {
  accountId: string
  kind: CollectionKind
  listing: CollectionListing
  empty: string
  label: string
  onRetry(): void
}) {
  const view = useNavigation((state) => state.view)
  const chosenListTypes = useCollectionsStore((state) => state.chosenListTypes)
  const navigate = useNavigation((state) => state.navigate)
  const viewKind = kind === 'albums' ? 'album' : 'list'
  return (
    <>
      {listing.collections.length === 0 ? (
        <p className="collections-nav__empty">{listing.problem ?? empty}</p>
      ) : (
        <ul className="collections-nav__items" aria-label={label}>
          {listing.collections.map((collection) => {
            const selected =
              view !== null && view.kind === viewKind && view.accountId === accountId && view.collectionUri === collection.postUri
            const listType = chosenListTypes[`${accountId}\n${collection.postUri}`] ?? collection.listType
            return (
              <li key={collection.postUri}>
                <NavItem
                  icon={kind === 'albums' ? 'album' : 'list'}
                  selected={selected}
                  badge={listType ? LIST_TYPE_NAMES[listType].badge : undefined}
                  onClick={() => navigate({ kind: viewKind, accountId, collectionUri: collection.postUri })}
                >
                  {collection.title}
                </NavItem>
              </li>
            )
          })}
        </ul>
      )}
      {listing.collections.length > 0 && listing.problem && (
        // The whole reason is long for the sidebar: shown on hover, read out in full.
        <p className="collections-nav__stale" title={listing.problem}>
          Not up to date<span className="visually-hidden">: {listing.problem}</span>
          <button type="button" className="collections-nav__retry" onClick={onRetry}>
            Retry
          </button>
        </p>
      )}
    </>
  )
}
