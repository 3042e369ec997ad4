import { useEffect, useId, useRef, useState } from 'react'
import type { Weblog } from '../../../../src-shared/contract'
import { openInBrowser } from '../../lib/links'
import { Button, Icon, Pane, Sheet, Spinner } from '../../ui'
import { displayUrl } from './displayUrl'
import { ImageSettings } from './ImageSettings'
import { useAccountsStore } from './store'
import './accounts.css'

export interface WeblogDetailsProps {
  accountId: string
  weblogPostUri: string
  /** What to do next, e.g. "Choose a draft in the list, or start a new post." */
  hint?: string
  /** Starts a new post on this weblog; left out where the list pane beside offers New post (the drafts). */
  onNewPost?: () => void
}

/**
 * The main pane for a weblog with nothing open: what it is called, where it lives, and New post. The addresses the
 * server announced (PostURI, FeedURI…) are for the curious, in the "Weblog details" sheet.
 */
export function WeblogDetails({ accountId, weblogPostUri, hint, onNewPost }: WeblogDetailsProps) {
  const account = useAccountsStore((state) =>
    state.accounts.status === 'loaded' ? state.accounts.value.find((item) => item.id === accountId) : undefined,
  )
  const weblogs = useAccountsStore((state) => state.weblogsByAccount[accountId])
  const landing = useAccountsStore((state) => state.landing === accountId)
  const weblog = weblogs?.status === 'loaded' ? weblogs.value.find((item) => item.postUri === weblogPostUri) : undefined
  const [detailsShown, setDetailsShown] = useState(false)
  const newPost = useRef<HTMLButtonElement>(null)

  // An account just added opens ready to write: New post has the focus, once.
  useEffect(() => {
    if (!landing || !weblog) return
    newPost.current?.focus()
    useAccountsStore.setState({ landing: null })
  }, [landing, weblog])

  if (!account) return null
  if (!weblogs || weblogs.status === 'loading') {
    return (
      <Pane layout="centered">
        <Spinner label={`Loading the weblogs of ${account.label}…`} />
      </Pane>
    )
  }
  if (!weblog) {
    return (
      <Pane layout="centered">
        <p>
          {weblogs.status === 'failed'
            ? `The weblogs of ${account.label} could not be loaded; the sidebar says why.`
            : 'This weblog is no longer among the account’s weblogs. Choose another in the sidebar.'}
        </p>
      </Pane>
    )
  }
  return (
    <Pane layout="wide">
      <article className="weblog-details">
        <header className="weblog-details__header">
          <p className="weblog-details__account">{account.label}</p>
          <h1 className="weblog-details__title">{weblog.title}</h1>
          {weblog.homeUrl && (
            <p className="weblog-details__home">
              <button type="button" className="link-button" onClick={() => void openInBrowser(weblog.homeUrl!)}>
                {displayUrl(weblog.homeUrl)}
                <Icon name="external" />
              </button>
            </p>
          )}
          {hint && <p className="weblog-details__hint">{hint}</p>}
        </header>
        <div className="weblog-details__actions">
          {onNewPost && (
            <button type="button" ref={newPost} className="button button--primary" onClick={onNewPost}>
              <Icon name="plus" /> New post
            </button>
          )}
          <Button variant="quiet" onClick={() => setDetailsShown(true)}>
            Weblog details
          </Button>
        </div>
        <ImageSettings accountId={accountId} weblogPostUri={weblogPostUri} />
      </article>
      <Sheet open={detailsShown} title={`Details of ${weblog.title}`} onClose={() => setDetailsShown(false)}>
        <EndpointList weblog={weblog} />
      </Sheet>
    </Pane>
  )
}

const endpoints: { key: keyof Omit<Weblog, 'title' | 'homeUrl'>; name: string; purpose: string }[] = [
  { key: 'postUri', name: 'PostURI', purpose: 'New posts are sent here.' },
  { key: 'feedUri', name: 'FeedURI', purpose: 'The latest posts, for reading and editing.' },
  { key: 'uploadUri', name: 'UploadURI', purpose: 'Files and images are uploaded here.' },
  { key: 'categoriesUri', name: 'CategoriesURI', purpose: "The weblog's categories." },
]

function EndpointList({ weblog }: { weblog: Weblog }) {
  const headingId = useId()
  return (
    <section className="endpoints" aria-labelledby={headingId}>
      <h3 className="endpoints__title" id={headingId}>
        Addresses the server announced
      </h3>
      <dl className="endpoints__list">
        {endpoints.map(({ key, name, purpose }) => (
          <div className="endpoints__row" key={key}>
            <dt className="endpoints__name">
              {name}
              <span className="endpoints__purpose">{purpose}</span>
            </dt>
            <dd className="endpoints__value">
              {weblog[key] ?? <span className="endpoints__missing">Not announced by the server</span>}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
