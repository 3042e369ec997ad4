// Keyboard shortcuts as the platform names them: Ctrl on Windows and Linux, ⌘ on macOS.

export const isMac = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** "Mod-Shift-Z" as aria-keyshortcuts ("Control+Shift+Z") and as shown in a tooltip ("Ctrl+Shift+Z", "⇧⌘Z"). */
export function shortcut(keys: string): { aria: string; shown: string } {
  const parts = keys.split('-')
  const key = parts.pop()!
  const ariaNames: Record<string, string> = { Mod: isMac ? 'Meta' : 'Control', Shift: 'Shift', Alt: 'Alt' }
  const aria = [...parts.map((part) => ariaNames[part] ?? part), key].join('+')
  if (isMac) {
    const symbols: Record<string, string> = { Mod: '⌘', Shift: '⇧', Alt: '⌥' }
    const order = ['Alt', 'Shift', 'Mod']
    return { aria, shown: `${order.filter((part) => parts.includes(part)).map((part) => symbols[part]).join('')}${keyName(key)}` }
  }
  const shownNames: Record<string, string> = { Mod: 'Ctrl', Shift: 'Shift', Alt: 'Alt' }
  return { aria, shown: [...parts.map((part) => shownNames[part] ?? part), keyName(key)].join('+') }
}

function keyName(key: string): string {
  return key === 'Enter' && isMac ? '↩' : key
}

/** Whether a key press holds the platform's command key (and only it, with Shift where `shift` says). */
export function withModifier(event: KeyboardEvent, { shift = false } = {}): boolean {
  const command = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey
  return command && !event.altKey && event.shiftKey === shift
}
