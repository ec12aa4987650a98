// A local stand-in of Razorpay's REST API (Orders, Payments, Refunds, with HTTP Basic auth,
// Razorpay-shaped answers and errors) on a node:http server, for the adapter's tests, the app's
// tests with PAYMENT_PROVIDER=razorpay and the fault tests. Every request is recorded; a test can
// answer in its own way (an outage: 500s, a body that is not JSON) or never answer ('hang').
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface RazorpayRequest {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown> | null
  /** Date.now() when the request arrived. */
  at: number
}
export interface RazorpayReply {
  status: number
  /** A string is sent as it is; anything else as JSON. */
  body: unknown
}
export type RazorpayPayment = { id: string; entity?: 'payment'; order_id: string; amount: number; currency: string; status: string }

export interface RazorpayStandIn {
  /** http://127.0.0.1:PORT, once listen() has resolved. */
  apiBase: string
  /** Every request received, in order (clear with `requests.length = 0`). */
  readonly requests: RazorpayRequest[]
  /** Razorpay's payments per Razorpay order, as GET /v1/orders/:id/payments lists them. */
  readonly paymentsByOrder: Map<string, RazorpayPayment[]>
  /** Status of the refunds it creates. */
  refundStatus: string
  /** When set and it answers (not null), it replaces the Razorpay-like routes; 'hang' never answers. */
  override: ((request: RazorpayRequest) => RazorpayReply | 'hang' | null) | null
  /** Called with every request as it arrives. */
  onRequest: ((request: RazorpayRequest) => void) | null
  /** The number in the last id it gave out (`order_<prefix><n>`, `rfnd_<prefix><n>`). */
  readonly counter: number
  /** Requests that match, e.g. sent('POST', '/v1/orders'). */
  sent(method: string, path: string | RegExp): RazorpayRequest[]
  /** Back to answering like Razorpay: no override, no payments, refunds processed, no requests recorded. */
  reset(): void
  listen(): Promise<string>
  /** Drops hanging requests and open connections, then closes. */
  close(): Promise<void>
}

export function createRazorpayStandIn(options: { keyId: string; keySecret: string; idPrefix?: string }): RazorpayStandIn {
  const basic = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`
  const prefix = options.idPrefix ?? ''
  const hanging: ServerResponse[] = []
  let server: Server | null = null

  const standIn: RazorpayStandIn & { counter: number } = {
    apiBase: '',
    requests: [],
    paymentsByOrder: new Map(),
    refundStatus: 'processed',
    override: null,
    onRequest: null,
    counter: 0,
    sent: (method, path) => standIn.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    reset() {
      standIn.requests.length = 0
      standIn.paymentsByOrder.clear()
      standIn.refundStatus = 'processed'
      standIn.override = null
      standIn.onRequest = null
    },
    async listen() {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (chunk: Buffer) => chunks.push(chunk))
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          const request: RazorpayRequest = { method: req.method!, path: req.url!, headers: req.headers, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : null, at: Date.now() }
          standIn.requests.push(request)
          standIn.onRequest?.(request)
          const reply = standIn.override?.(request) ?? razorpay(request)
          if (reply === 'hang') return void hanging.push(res)
          res.writeHead(reply.status, { 'content-type': 'application/json' }).end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body))
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

  function razorpay(request: RazorpayRequest): RazorpayReply {
    if (request.headers.authorization !== basic) {
      return { status: 401, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'Authentication failed', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } } }
    }
    const body = request.body ?? {}
    if (request.method === 'POST' && request.path === '/v1/orders') {
      return {
        status: 200,
        body: { id: `order_${prefix}${++standIn.counter}`, entity: 'order', amount: body.amount, amount_paid: 0, amount_due: body.amount, currency: body.currency, receipt: body.receipt, status: 'created', attempts: 0, notes: body.notes, created_at: 1_700_000_000 },
      }
    }
    const payments = /^\/v1\/orders\/([^/]+)\/payments$/.exec(request.path)
    if (request.method === 'GET' && payments) {
      const items = standIn.paymentsByOrder.get(payments[1]!) ?? []
      return { status: 200, body: { entity: 'collection', count: items.length, items } }
    }
    const refund = /^\/v1\/payments\/([^/]+)\/refund$/.exec(request.path)
    if (request.method === 'POST' && refund) {
      return {
        status: 200,
        body: { id: `rfnd_${prefix}${++standIn.counter}`, entity: 'refund', amount: body.amount, currency: 'INR', payment_id: refund[1], notes: body.notes, receipt: body.receipt, status: standIn.refundStatus, speed_processed: 'normal', speed_requested: 'normal' },
      }
    }
    return { status: 404, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } } }
  }

  return standIn
}
