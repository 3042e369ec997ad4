import { useEffect, useId } from 'react'
import { Alert, Button, Card, ErrorNotice, Pane, Spinner } from '../../ui'
import { useAccountsStore } from '../accounts'
import { formatExact, formatWhen } from './dates'
import { usePostsStore, weblogKey } from './store'
import './categories-pane.css'

export interface CategoriesPaneProps {
  accountId: string
  weblogPostUri: string
}

/** The weblog's categories as its server lists them, with when they were read and a way to read them again. */
export function CategoriesPane({ accountId, weblogPostUri }: CategoriesPaneProps) {
  const key = weblogKey({ accountId, weblogPostUri })
  const view = usePostsStore((state) => state.categories[key])
  const loadCategories = usePostsStore((state) => state.loadCategories)
  const weblogTitle = useAccountsStore((state) => {
    const weblogs = state.weblogsByAccount[accountId]
    return weblogs?.status === 'loaded' ? weblogs.value.find((weblog) => weblog.postUri === weblogPostUri)?.title : undefined
  })
  const headingId = useId()
  const refresh = () => void loadCategories({ accountId, weblogPostUri }, { refresh: true })

  useEffect(() => {
    const address = { accountId, weblogPostUri }
    // What was last read shows at once, then what the server says now.
    void loadCategories(address, { refresh: false }).then(() => loadCategories(address, { refresh: true }))
  }, [accountId, weblogPostUri, loadCategories])

  const listing = view?.listing ?? null
  return (
    <Pane layout="wide">
      <article className="categories-pane" aria-labelledby={headingId}>
        <header className="categories-pane__header">
          <div>
            {weblogTitle && <p className="categories-pane__weblog">{weblogTitle}</p>}
            <h1 className="categories-pane__title" id={headingId}>
              Categories
            </h1>
          </div>
          <Button onClick={refresh} disabled={view?.refreshing ?? false}>
            {view?.refreshing ? 'Refreshing…' : 'Refresh'}
          </Button>
        </header>
        <p className="categories-pane__fetched" role="status">
          {view?.refreshing && listing
            ? 'Asking the server…'
            : listing?.fetchedAt && (
                <>
                  Read from the server{' '}
                  <time dateTime={listing.fetchedAt} title={formatExact(listing.fetchedAt)}>
                    {formatWhen(listing.fetchedAt)}
                  </time>
                  .
                </>
              )}
        </p>
        {listing?.problem && (
          <Alert tone="warning" title={listing.fetchedAt ? 'Showing what was last read' : 'Categories unavailable'}>
            <p>{listing.problem}</p>
          </Alert>
        )}
        {view?.error && <ErrorNotice error={view.error} onRetry={refresh} />}
        {!listing && view?.status !== 'failed' && (
          <div className="categories-pane__loading">
            <Spinner label="Reading the weblog’s categories…" />
          </div>
        )}
        {listing &&
          (listing.categories.length === 0 ? (
            !listing.problem && (
              <p className="categories-pane__empty">
                This weblog has no categories yet. They are made on the weblog’s own site; refresh here once you have added
                one.
              </p>
            )
          ) : (
            <Card className="categories-pane__card" aria-label="The weblog’s categories">
              <ul className="categories-pane__list">
                {listing.categories.map((name) => (
                  <li key={name} className="categories-pane__item">
                    {name}
                  </li>
                ))}
              </ul>
              <p className="categories-pane__hint">
                Choose among these in a post’s Categories field. The server refuses a post filed under a name it does not
                list.
              </p>
            </Card>
          ))}
      </article>
    </Pane>
  )
}
