// What the person is told by a dialog, because there is no page to tell them: Blogdesk could not start, or their
// passwords are only obfuscated on this computer.
import { dialog, type BrowserWindow } from 'electron'
import { DataInUseError } from '../core'
import { readJsonFile, writeJsonFile } from '../platform'

export function showStartupError(error: unknown): void {
  if (error instanceof DataInUseError) {
    dialog.showErrorBox('Blogdesk is already open', `${error.message}\n\nThis Blogdesk will close now.`)
    return
  }
  const reason = error instanceof Error ? error.message : String(error)
  dialog.showErrorBox('Blogdesk could not start', `${reason}\n\nBlogdesk will close now. If this keeps happening, please report it.`)
}

interface Notices {
  /** The person read the weak-keyring warning and asked not to see it again. */
  weakKeyring?: 'acknowledged'
}

const isNotices = (value: unknown): value is Notices => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * On Linux without GNOME Keyring or KWallet, safeStorage seals secrets with a key built into Chromium. Blogdesk still
 * works, but the person must know their passwords are only obfuscated: this says so at each start until they tick
 * "Don't warn me again".
 */
export async function warnAboutWeakKeyring(parent: BrowserWindow | null, noticesFile: string): Promise<void> {
  const notices = readJsonFile(noticesFile, isNotices) ?? {}
  if (notices.weakKeyring === 'acknowledged') return
  const options = {
    type: 'warning' as const,
    title: 'Passwords are not encrypted',
    message: 'This computer has no keyring, so Blogdesk can only obfuscate your passwords',
    detail:
      'Blogdesk keeps your API passwords and sign-ins in a file that anyone who can read your files could decode. ' +
      'To encrypt them, install and unlock GNOME Keyring or KWallet, then restart Blogdesk. A password saved before ' +
      'stays obfuscated until you enter it again.',
    buttons: ['OK'],
    checkboxLabel: 'Don’t warn me again',
  }
  const answer = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options)
  if (answer.checkboxChecked) writeJsonFile(noticesFile, { ...notices, weakKeyring: 'acknowledged' })
}
