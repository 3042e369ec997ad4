// The outbox, seen from outside the window: a count on the Dock or taskbar icon while anything waits to go or needs
// the person, and a notification when something was published or needs attention — only when the person is not
// looking at Blogdesk, who sees both in the window already.
import { app, BrowserWindow, nativeImage, Notification, type NativeImage } from 'electron'
import type { AppStatus, Events, OutboxItem, OutboxItemState } from '../../src-shared/contract'
import type { Core } from '../core'
import type { AppWindows } from './app-windows'

type ShowCount = (count: number) => void

/** Starts signalling; returns the function that stops. */
export function signalOutbox(
  core: Pick<Core, 'onEvent' | 'handlers'>,
  windows: AppWindows,
  os: NodeJS.Platform = process.platform,
): () => void {
  let stopped = false
  const showCount = os === 'win32' ? overlayCount(windows) : badgeCount()
  const show = (status: AppStatus) => {
    if (!stopped) showCount(status.outbox.waiting + status.outbox.needsAttention)
  }
  const refresh = () => {
    core.handlers['app:status'](null).then(show, (error: unknown) => {
      console.error('Blogdesk could not count the outbox for its icon:', error)
    })
  }
  const notify = notifier(windows)
  refresh()
  const unsubscribe = core.onEvent((event, payload) => {
    if (event === 'app:statusChanged') show(payload as Events['app:statusChanged'])
    if (event === 'outbox:changed') {
      notify(payload as Events['outbox:changed'])
      refresh()
    }
  })
  return () => {
    stopped = true
    unsubscribe()
    showCount(0)
  }
}

/**
 * The Dock or launcher badge. On macOS it needs the permission to notify, which an unsigned build never gets: the
 * count is then left off, said once in the log.
 */
function badgeCount(): ShowCount {
  let refused = false
  return (count) => {
    if (app.setBadgeCount(count) || refused) return
    refused = true
    console.warn('Blogdesk cannot show the outbox count on its icon (is it allowed to show notifications?).')
  }
}

/** Notifications held at once: enough for a burst, bounded whatever the system does with the rest. */
const HELD_NOTIFICATIONS = 10

/** Notifies each operation's arrival at done, needs-attention or conflict once, whatever repeats follow. */
function notifier(windows: AppWindows): (item: OutboxItem) => void {
  const lastStates = new Map<number, OutboxItemState>()
  // Electron forgets a notification's click handler when nothing holds the notification. Its 'close' is not a
  // sign to let go (it is not emitted on every system, nor for one that never showed): the latest few are held.
  const held: Notification[] = []
  let refused = false
  return (item) => {
    const previous = lastStates.get(item.id)
    lastStates.set(item.id, item.state)
    const message = previous === item.state ? null : notificationFor(item)
    // Any of Blogdesk's windows in front (the sign-in page too) means the person is looking at Blogdesk.
    if (!message || BrowserWindow.getFocusedWindow() || !Notification.isSupported()) return
    const notification = new Notification(message)
    if (held.push(notification) > HELD_NOTIFICATIONS) held.shift()
    notification.on('click', () => windows.focus() ?? windows.open())
    // An unsigned macOS build is refused: the window shows everything anyway, so the log says it once.
    notification.on('failed', (_event, error) => {
      const index = held.indexOf(notification)
      if (index >= 0) held.splice(index, 1)
      if (refused) return
      refused = true
      console.warn(`Blogdesk cannot show notifications: ${error}`)
    })
    notification.show()
  }
}

export function notificationFor(item: OutboxItem): { title: string; body: string } | null {
  const name = `“${item.title.trim() || 'Untitled'}”`
  switch (item.state) {
    case 'done':
      return published(item, name)
    case 'needs-attention':
      return { title: 'Needs your attention', body: `${name} was not sent: ${item.lastError ?? 'open the outbox to see why.'}` }
    case 'conflict':
      return { title: 'Changed in two places', body: `${name} was changed on the server too. Open it to choose which version to keep.` }
    default:
      return null
  }
}

function published(item: OutboxItem, name: string): { title: string; body: string } {
  switch (item.kind) {
    case 'post.create':
      return { title: 'Published', body: `${name} is on your weblog.` }
    case 'post.update':
      return { title: 'Changes published', body: `${name} is updated on your weblog.` }
    case 'post.delete':
      return { title: 'Deleted', body: `${name} is gone from your weblog.` }
    case 'photo':
      return { title: 'Photo added', body: `${name} is in your album.` }
    case 'upload':
      return { title: 'Uploaded', body: `${name} is on your weblog's server.` }
    case 'list-item':
      return { title: 'Added to your list', body: `${name} is on your list.` }
  }
}

/** Windows has no count on taskbar buttons: a dot overlays the icon, and the count is in its description. */
function overlayCount(windows: AppWindows): ShowCount {
  let dot: NativeImage | null = null
  return (count) => {
    dot ??= drawDot()
    for (const window of windows.all()) {
      window.setOverlayIcon(count > 0 ? dot : null, count > 0 ? `${count} in the outbox` : '')
    }
  }
}

/** A 16-point dot in the app's accent colour with a white rim, drawn at twice the size for sharp high-DPI taskbars. */
function drawDot(): NativeImage {
  const size = 32
  const center = (size - 1) / 2
  const pixels = Buffer.alloc(size * size * 4)
  const accent = { red: 0x3d, green: 0x5b, blue: 0xd9 }
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x - center, y - center)
      const alpha = Math.min(1, Math.max(0, size / 2 - distance))
      const rim = distance > size / 2 - 3
      const color = rim ? { red: 0xff, green: 0xff, blue: 0xff } : accent
      // Premultiplied BGRA, as createFromBitmap expects.
      pixels.set([color.blue * alpha, color.green * alpha, color.red * alpha, 255 * alpha].map(Math.round), (y * size + x) * 4)
    }
  }
  return nativeImage.createFromBitmap(pixels, { width: size, height: size, scaleFactor: 2 })
}
