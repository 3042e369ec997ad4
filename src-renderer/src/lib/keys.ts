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

const KEY_NAMES: Record<string, string> = { ArrowLeft: '←', ArrowRight: '→', ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' }

function keyName(key: string): string {
  return key === 'Enter' && isMac ? '↩' : (KEY_NAMES[key] ?? key)
}

/** Whether a key press is `keys` ("Mod-Enter", "Shift-F6", "Mod-/"): exactly these modifiers, and this key. */
export function matchesKeys(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, keys: string): boolean {
  const parts = keys.split('-')
  const key = parts.pop()!
  const mod = parts.includes('Mod')
  const command = isMac ? event.metaKey : event.ctrlKey
  const otherControl = isMac ? event.ctrlKey : event.metaKey
  if (command !== mod || otherControl || event.altKey !== parts.includes('Alt')) return false
  // A slash typed with Shift (on keyboards that have it over a digit) is still the slash.
  if (key === '/') return event.key === '/' || event.code === 'Slash'
  return event.shiftKey === parts.includes('Shift') && event.key.toLowerCase() === key.toLowerCase()
}
