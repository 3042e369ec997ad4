// Seals secrets with the operating system's keychain (Keychain, DPAPI, libsecret/KWallet) through safeStorage.
import { safeStorage } from 'electron'
import { CoreError, type SecretCipher } from '../core'

export interface SafeStorageCipher extends SecretCipher {
  /**
   * True when Linux found no keyring and safeStorage fell back to a key built into Chromium: the secrets file is
   * then only obfuscated, which the person should be told.
   */
  readonly weak: boolean
}

/** Call once the app is ready: before, safeStorage cannot tell which keyring it has. */
export function safeStorageCipher(): SafeStorageCipher {
  // Without a keyring safeStorage has no key at all until told to use its built-in one; Blogdesk then keeps working,
  // and the person is told their passwords are only obfuscated (`weak`).
  if (isWeak()) safeStorage.setUsePlainTextEncryption(true)
  return {
    encrypt(plain) {
      requireEncryption()
      return safeStorage.encryptString(plain)
    },
    decrypt(sealed) {
      requireEncryption()
      try {
        return safeStorage.decryptString(Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength))
      } catch (error) {
        throw new CoreError(
          'auth',
          "A saved password could not be unlocked: this computer's keychain no longer has the key it was sealed with. Remove the account and add it again.",
          { cause: error },
        )
      }
    },
    get weak() {
      return isWeak()
    },
  }
}

function isWeak(): boolean {
  return process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text'
}

// Checked on every use, not once: availability can change (a keyring gets locked) and is false before `ready`.
function requireEncryption(): void {
  if (safeStorage.isEncryptionAvailable()) return
  throw new CoreError(
    'auth',
    "Blogdesk cannot keep passwords safe because this computer's keychain is not available. Unlock or set up the system keychain (on Linux: GNOME Keyring or KWallet), then try again.",
  )
}
