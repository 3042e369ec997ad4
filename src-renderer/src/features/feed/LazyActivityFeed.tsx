import { Component, lazy, Suspense, type ReactNode } from 'react'
import { toApiError } from '../../lib/api'
import { ErrorNotice, Pane, Spinner } from '../../ui'
import type { ActivityFeedProps } from './ActivityFeed'

const loadActivityFeed = () => import('./ActivityFeed')

const ActivityFeed = lazy(() => loadActivityFeed().then((module) => ({ default: module.ActivityFeed })))

/** Starts loading the feed's code before it is shown (the friends list does, as it opens). */
export function preloadActivityFeed(): void {
  void loadActivityFeed()
}

/** ActivityFeed, loaded when first shown: the virtualiser and the feed's rows are not part of the app's first load. */
export function LazyActivityFeed(props: ActivityFeedProps) {
  return (
    <FeedFailure key={props.friendId}>
      <Suspense
        fallback={
          <Pane layout="centered">
            <Spinner label="Opening the feed…" />
          </Pane>
        }
      >
        <ActivityFeed {...props} />
      </Suspense>
    </FeedFailure>
  )
}

/** A feed that fails to load or to draw says so in the main pane; the rest of the window carries on. */
class FeedFailure extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  override render() {
    if (this.state.error === null) return this.props.children
    return (
      <Pane layout="narrow">
        <ErrorNotice error={toApiError(this.state.error)} onRetry={() => this.setState({ error: null })} />
      </Pane>
    )
  }
}
