// Runs an action once a burst of events has paused. Typing pokes it on every keystroke, so a poke only notes the
// time: the one timer re-arms itself for what is left when it fires early, instead of being replaced per keystroke.

export class AfterPause {
  readonly #delayMs: number
  readonly #action: () => void
  #lastPoke = 0
  #timer: ReturnType<typeof setTimeout> | null = null

  constructor(delayMs: number, action: () => void) {
    this.#delayMs = delayMs
    this.#action = action
  }

  get pending(): boolean {
    return this.#timer !== null
  }

  poke(): void {
    this.#lastPoke = performance.now()
    this.#timer ??= setTimeout(this.#fire, this.#delayMs)
  }

  cancel(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }

  readonly #fire = () => {
    const quiet = performance.now() - this.#lastPoke
    if (quiet < this.#delayMs) {
      this.#timer = setTimeout(this.#fire, this.#delayMs - quiet)
      return
    }
    this.#timer = null
    this.#action()
  }
}
