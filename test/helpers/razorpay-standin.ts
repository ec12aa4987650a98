// A local stand-in of Razorpay's REST API (Orders, Payments, Refunds, with HTTP Basic auth,
// Razorpay-shaped answers and errors) on a stand-in server (standin-server.ts), for the adapter's tests, the app's
// tests with PAYMENT_PROVIDER=razorpay and the fault tests. Every request is recorded; a test can
// answer in its own way (an outage: 500s, a body that is not JSON) or never answer ('hang').
import { createStandInServer, type StandInReply, type StandInRequest, type StandInServer } from './standin-server.ts'

export type RazorpayRequest = StandInRequest
export type RazorpayReply = StandInReply
export type RazorpayPayment = { id: string; entity?: 'payment'; order_id: string; amount: number; currency: string; status: string }

export interface RazorpayStandIn extends StandInServer {
  /** Razorpay's payments per Razorpay order, as GET /v1/orders/:id/payments lists them. */
  readonly paymentsByOrder: Map<string, RazorpayPayment[]>
  /** Status of the refunds it creates. */
  refundStatus: string
  /** The number in the last id it gave out (`order_<prefix><n>`, `rfnd_<prefix><n>`). */
  readonly counter: number
  /** Back to answering like Razorpay: no override, no payments, refunds processed, no requests recorded. */
  reset(): void
}

export function createRazorpayStandIn(options: { keyId: string; keySecret: string; idPrefix?: string }): RazorpayStandIn {
  const basic = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`
  const prefix = options.idPrefix ?? ''
  const standIn: RazorpayStandIn & { counter: number } = Object.assign(createStandInServer((request) => razorpay(request)), {
    paymentsByOrder: new Map<string, RazorpayPayment[]>(),
    refundStatus: 'processed',
    counter: 0,
    reset() {
      standIn.requests.length = 0
      standIn.paymentsByOrder.clear()
      standIn.refundStatus = 'processed'
      standIn.override = null
      standIn.onRequest = null
    },
  })

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
