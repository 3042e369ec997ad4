// What was typed last must not be lost on quitting. `before-quit` comes before any window closes, and the renderer
// would save its drafts only when its page goes (pagehide), after the IPC handlers and the store are gone. So before
// tearing anything down, quitting asks every window to save and waits, within a bound, for each one's answer.
import type { ShellHandlers } from '../../src-shared/contract'
import type { AppWindows } from './app-windows'

/** Saving a draft is a local write; a window silent this long (hung, or gone) does not hold the quit up any longer. */
export const SAVE_ON_QUIT_TIMEOUT_MS = 3_000

export class SavesOnQuit {
  readonly #windows: AppWindows
  readonly #timeoutMs: number
  #waiting = 0
  #allAnswered: () => void = () => undefined

  constructor(windows: AppWindows, timeoutMs = SAVE_ON_QUIT_TIMEOUT_MS) {
    this.#windows = windows
    this.#timeoutMs = timeoutMs
  }

  /** The windows' answers, for registerIpc. */
  readonly handlers: ShellHandlers = {
    'app:readyToQuit': async () => {
      if (this.#waiting > 0 && --this.#waiting === 0) this.#allAnswered()
      return null
    },
  }

  /** Asks every window showing our page to save; resolves once all have answered, or after the timeout. */
  collect(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.#timeoutMs)
      this.#allAnswered = () => {
        clearTimeout(timer)
        resolve()
      }
      this.#waiting = this.#windows.sendToAll('app:quitting', null)
      if (this.#waiting === 0) this.#allAnswered()
    })
  }
}
