// A small closed-loop load generator on node:http with keep-alive: `concurrency` requests in flight until `requests`
// have been answered. The service and the reference it is compared with run in other processes, measured alike.
import { Agent, request } from 'node:http'

export interface LoadRequest {
  method: 'GET' | 'POST'
  url: string
  headers?: Record<string, string>
  body?: string
}

export interface LoadResult {
  perSecond: number
  p50Ms: number
  p99Ms: number
}

export async function drive(
  next: () => LoadRequest,
  { requests, concurrency, expectStatus }: { requests: number; concurrency: number; expectStatus: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: number[] = []
  let started = 0
  const worker = async () => {
    while (started < requests) {
      started++
      const begin = performance.now()
      const status = await send(agent, next())
      latencies.push(performance.now() - begin)
      if (status !== expectStatus) throw new Error(`expected HTTP ${expectStatus}, got ${status}`)
    }
  }
  const begin = performance.now()
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = (performance.now() - begin) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!
  return { perSecond: requests / seconds, p50Ms: percentile(0.5), p99Ms: percentile(0.99) }
}

function send(agent: Agent, { method, url, headers = {}, body }: LoadRequest): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, agent, headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}
