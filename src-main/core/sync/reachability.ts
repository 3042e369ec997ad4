// What Blogdesk knows of each server it talks to, from the outcome of its real requests rather than the computer's
// network flag: a server that answered anything (any HTTP status) can be reached; one that could not be connected to
// cannot. Every request of core (the outbox, the feed poller, reads) goes through `observe`'s fetch, and the sync
// engine reports its own streamed uploads, so any request that gets an answer tells.
//
// While operations wait for a server that cannot be reached, it is probed with a HEAD of its root on a short capped
// schedule (PROBE_SCHEDULE_MS), so a server that comes back is known within seconds, not at the outbox's next backoff;
// whoever listens (the sync engine) is told at once and sends what waits.
import { hostOf, transportFailure, type Fetch } from '../atom'
import type { Clock } from './clock'

/** The waits before each probe of a server that cannot be reached, the last repeated: a server back is seen within 2 s. */
export const PROBE_SCHEDULE_MS = [1_000, 2_000]
const PROBE_TIMEOUT_MS = 5_000

export interface ServerReach {
  /** The server's origin (scheme, host and port). */
  origin: string
  /** The host (and port) as the person knows it. */
  host: string
  reachable: boolean
  /** Why it cannot be reached, in words; null when it can. */
  problem: string | null
  /** When it is probed next (ms since the epoch), while it cannot be reached and something waits for it. */
  nextProbeAt: number | null
}

export interface ReachabilityOptions {
  clock: Clock
  /** The fetch the probes go through (not observed: a probe's outcome is recorded by the probe itself). */
  fetch: Fetch
}

interface Server {
  reachable: boolean
  problem: string | null
  waiting: boolean
  probes: number
  nextProbeAt: number | null
  cancelProbe: (() => void) | null
  probing: boolean
}

export class Reachability {
  readonly #clock: Clock
  readonly #fetch: Fetch
  readonly #servers = new Map<string, Server>()
  readonly #changed = new Set<() => void>()
  readonly #back = new Set<(origin: string) => void>()

  constructor(options: ReachabilityOptions) {
    this.#clock = options.clock
    this.#fetch = options.fetch
  }

  /** `fetch` whose outcomes are recorded: an answer means its server can be reached, a failure to connect that it cannot. */
  observe(fetch: Fetch): Fetch {
    return async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      try {
        const response = await fetch(input, init)
        this.answered(url)
        return response
      } catch (error) {
        this.failed(url, error)
        throw error
      }
    }
  }

  /** A server answered a request to `url`. */
  answered(url: string): void {
    const origin = originOf(url)
    const server = this.#servers.get(origin)
    if (server === undefined) {
      this.#servers.set(origin, newServer(true, null))
      return
    }
    if (server.reachable) return
    server.reachable = true
    server.problem = null
    server.probes = 0
    this.#stopProbing(server)
    for (const listener of this.#back) listener(origin)
    this.#tellChanged()
  }

  /** A request to `url` failed in transport; only a failure to connect at all says the server cannot be reached. */
  failed(url: string, error: unknown): void {
    const failure = transportFailure(error, url, null, PROBE_TIMEOUT_MS)
    if (failure.kind === 'unreachable') this.unreachable(url, failure.message)
  }

  unreachable(url: string, problem: string): void {
    const origin = originOf(url)
    const known = this.#servers.get(origin)
    const server = known ?? newServer(false, problem)
    this.#servers.set(origin, server)
    const news = known === undefined || server.reachable || server.problem !== problem
    server.reachable = false
    server.problem = problem
    if (server.waiting && server.cancelProbe === null && !server.probing) this.#scheduleProbe(origin, server)
    if (news) this.#tellChanged()
  }

  isReachable(url: string): boolean {
    return this.#servers.get(originOf(url))?.reachable ?? true
  }

  /**
   * Says which servers have operations waiting (by any of their URLs): those that cannot be reached are probed until
   * they answer; the others are left alone.
   */
  setWaiting(urls: Iterable<string>): void {
    const waiting = new Set([...urls].map(originOf))
    for (const [origin, server] of this.#servers) {
      server.waiting = waiting.has(origin)
      if (!server.waiting) this.#stopProbing(server)
      else if (!server.reachable && server.cancelProbe === null && !server.probing) this.#scheduleProbe(origin, server)
    }
  }

  /** Probes every server that cannot be reached now, rather than at its next turn (the person asked to try now). */
  probeNow(): void {
    for (const [origin, server] of this.#servers) {
      if (server.reachable || server.probing) continue
      this.#stopProbing(server)
      void this.#probe(origin, server)
    }
  }

  servers(): ServerReach[] {
    return [...this.#servers].map(([origin, server]) => ({
      origin,
      host: hostOf(origin),
      reachable: server.reachable,
      problem: server.problem,
      nextProbeAt: server.nextProbeAt,
    }))
  }

  /** Calls `listener` when a server's state or its next probe changes; returns the unsubscribe function. */
  onChanged(listener: () => void): () => void {
    this.#changed.add(listener)
    return () => this.#changed.delete(listener)
  }

  /** Calls `listener` with a server's origin as soon as it answers again after it could not be reached. */
  onBack(listener: (origin: string) => void): () => void {
    this.#back.add(listener)
    return () => this.#back.delete(listener)
  }

  /** Cancels every probe, and schedules none until told again what waits (a probe under way still records its outcome). */
  stop(): void {
    for (const server of this.#servers.values()) {
      server.waiting = false
      this.#stopProbing(server)
    }
  }

  #scheduleProbe(origin: string, server: Server): void {
    const delay = PROBE_SCHEDULE_MS[Math.min(server.probes, PROBE_SCHEDULE_MS.length - 1)]!
    server.nextProbeAt = this.#clock.now() + delay
    server.cancelProbe = this.#clock.setTimer(() => {
      server.cancelProbe = null
      void this.#probe(origin, server)
    }, delay)
    this.#tellChanged()
  }

  async #probe(origin: string, server: Server): Promise<void> {
    server.probing = true
    server.probes += 1
    try {
      await this.#fetch(`${origin}/`, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) })
      server.probing = false
      this.answered(origin)
    } catch (error) {
      server.probing = false
      const failure = transportFailure(error, origin, null, PROBE_TIMEOUT_MS)
      // A probe that connected but got no answer in time still leaves the server unreachable to the person.
      this.unreachable(origin, failure.kind === 'unreachable' ? failure.message : server.problem ?? failure.message)
    }
  }

  #stopProbing(server: Server): void {
    server.cancelProbe?.()
    server.cancelProbe = null
    server.nextProbeAt = null
  }

  #tellChanged(): void {
    for (const listener of this.#changed) listener()
  }
}

function newServer(reachable: boolean, problem: string | null): Server {
  return { reachable, problem, waiting: false, probes: 0, nextProbeAt: null, cancelProbe: null, probing: false }
}

/** The origin a URL's server is known by; a string that is no URL stands for itself. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}
