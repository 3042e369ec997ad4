import { shortcuts } from '../../../../src-shared/contract'
import { shortcut } from '../../lib/keys'
import { ConfirmDialog } from '../../ui'
import { useAccountsStore } from '../accounts'

/** The posts whose publishing by keys was confirmed in this window: Ctrl+Enter publishes those without asking. */
const confirmedPosts = new Set<string>()

export function publishByKeysConfirmed(draftId: string): boolean {
  return confirmedPosts.has(draftId)
}

export function confirmPublishByKeys(draftId: string): void {
  confirmedPosts.add(draftId)
}

export interface PublishConfirmProps {
  open: boolean
  title: string
  accountId: string
  weblogPostUri: string
  onPublish(): void
  onCancel(): void
}

/**
 * Ctrl+Enter's question, the first time it is pressed in a post: a stray chord must not publish. Publish has the
 * focus, so Enter (or Ctrl+Enter again) answers it; `onPublish` calls confirmPublishByKeys.
 */
export function PublishConfirm({ open, title, accountId, weblogPostUri, onPublish, onCancel }: PublishConfirmProps) {
  const weblog = useAccountsStore((state) => {
    const weblogs = state.weblogsByAccount[accountId]
    return (weblogs?.status === 'loaded' && weblogs.value.find((each) => each.postUri === weblogPostUri)?.title) || 'the weblog'
  })
  return (
    <ConfirmDialog
      open={open}
      title={`Publish “${title.trim() || 'Untitled'}” to ${weblog}?`}
      confirmLabel="Publish"
      confirmFirst
      onConfirm={onPublish}
      onCancel={onCancel}
    >
      <p>{`It goes to the weblog as soon as Blogdesk can reach the server. From now on ${shortcut(shortcuts.publish.keys).shown} publishes this post without asking.`}</p>
    </ConfirmDialog>
  )
}
