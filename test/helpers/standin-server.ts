// The plumbing every stand-in of an outside API shares (Razorpay, RazorpayX, Shiprocket): a node:http server
// on a free loopback port that records each JSON request, lets a test answer in its own way (an
// outage, a lost answer) or never answer ('hang'), and closes without waiting for hung requests.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StandInRequest {
  method: string
  /** Path and query string. */
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown> | null
  /** Date.now() when the request arrived. */
  at: number
}
export interface StandInReply {
  status: number
  /** A string is sent as it is; anything else as JSON. */
  body: unknown
}

export interface StandInServer {
  /** http://127.0.0.1:PORT, once listen() has resolved. */
  apiBase: string
  /** Every request received, in order (clear with `requests.length = 0`). */
  readonly requests: StandInRequest[]
  /** When set and it answers (not null), it replaces the API's own answer; 'hang' never answers. */
  override: ((request: StandInRequest) => StandInReply | 'hang' | null) | null
  /** Called with every request as it arrives; the answer waits for a promise it returns. */
  onRequest: ((request: StandInRequest) => void | Promise<void>) | null
  /** Requests that match, e.g. sent('POST', '/v1/payouts'): a string is the path with or without its query, a RegExp is matched against the path with its query. */
  sent(method: string, path: string | RegExp): StandInRequest[]
  listen(): Promise<string>
  close(): Promise<void>
}

/** `api` answers like the real API, unless `override` answers first. */
export function createStandInServer(api: (request: StandInRequest) => StandInReply): StandInServer {
  const hanging: ServerResponse[] = []
  let server: Server | null = null
  const standIn: StandInServer = {
    apiBase: '',
    requests: [],
    override: null,
    onRequest: null,
    sent: (method, path) => standIn.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path || r.path.split('?')[0] === path : path.test(r.path))),
    async listen() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          const request: StandInRequest = { method: req.method!, path: req.url!, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null, at: Date.now() }
          standIn.requests.push(request)
          const answer = () => {
            const reply = standIn.override?.(request) ?? api(request)
            if (reply === 'hang') return void hanging.push(res)
            res.writeHead(reply.status, { 'content-type': 'application/json' }).end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
          }
          const waiting = standIn.onRequest?.(request)
          if (waiting) void waiting.then(answer, (err: unknown) => res.writeHead(500).end(String(err)))
          else answer()
        })
      })
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
      standIn.apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      return standIn.apiBase
    },
    async close() {
      for (const res of hanging.splice(0)) res.destroy()
      if (!server) return
      server.closeAllConnections()
      await new Promise((resolve) => server!.close(resolve))
    },
  }
  return standIn
}
