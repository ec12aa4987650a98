// The open-model load generator shared by `npm run bench` (fixed-rate scenarios) and
// `npm run test:stress`: each stream sends its requests at a fixed rate, evenly spaced, whatever
// the answers do, and each latency is measured from the moment the request was due (no
// coordinated omission). autocannon's own fixed rate is not used for this: it sends each
// connection's share of a second in a burst at the start of the second, and corrects for
// coordinated omission with a 1 ms expected interval whatever the rate, both of which inflate
// the percentiles of a fixed-rate run several times over.
export interface Request {
  method: 'GET' | 'POST'
  path: string
  headers: Record<string, string>
  body?: string
}
export interface Sample {
  /** From the moment the request was due to its answer (or its failure). */
  ms: number
  /** HTTP status; 0 when the request failed without one (connection error, 15 s timeout). */
  status: number
  dueAt: number
}
export interface Stream {
  name: string
  rate: number
  request: (i: number) => Request
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Sends each stream's requests at its fixed rate for `seconds`, whatever the answers do. */
export async function openModel(base: string, streams: Stream[], seconds: number): Promise<Record<string, Sample[]>> {
  const started = performance.now()
  const out: Record<string, Sample[]> = {}
  await Promise.all(
    streams.map(async (s) => {
      const samples: Sample[] = (out[s.name] = [])
      const pending: Promise<void>[] = []
      const total = Math.round(s.rate * seconds)
      for (let i = 0; i < total; i++) {
        const dueAt = started + (i * 1000) / s.rate
        const wait = dueAt - performance.now()
        if (wait > 1) await sleep(wait)
        const q = s.request(i)
        pending.push(
          fetch(`${base}${q.path}`, { method: q.method, headers: q.headers, body: q.body, signal: AbortSignal.timeout(15_000) })
            .then(async (res) => {
              await res.arrayBuffer()
              samples.push({ ms: performance.now() - dueAt, status: res.status, dueAt: dueAt - started })
            })
            .catch(() => void samples.push({ ms: performance.now() - dueAt, status: 0, dueAt: dueAt - started })),
        )
      }
      await Promise.all(pending)
    }),
  )
  return out
}

