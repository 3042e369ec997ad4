import { Component, type ReactNode } from 'react'
import { Alert, Button, Pane } from '../../ui'

interface PaneBoundaryProps {
  /** Names the pane in the message, e.g. "the editor". */
  what: string
  children: ReactNode
}

/**
 * Keeps a fault in one pane (a part of Blogdesk that threw, or could not be loaded) from blanking the window: the
 * pane says so and offers to try again, while the sidebar and the status bar go on working.
 */
export class PaneBoundary extends Component<PaneBoundaryProps, { error: Error | null }> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) }
  }

  override componentDidCatch(error: unknown) {
    console.error(`The ${this.props.what} failed:`, error)
  }

  override render() {
    if (this.state.error === null) return this.props.children
    return (
      <Pane layout="narrow">
        <Alert
          tone="error"
          title={`Something went wrong in ${this.props.what}`}
          actions={<Button onClick={() => this.setState({ error: null })}>Try again</Button>}
        >
          <p>
            {this.state.error.message} Your drafts and the outbox are safe on this computer. If this happens again, restart Blogdesk and
            please report it.
          </p>
        </Alert>
      </Pane>
    )
  }
}
