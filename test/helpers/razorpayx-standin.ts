// A local stand-in of RazorpayX's payout API (contacts, fund accounts, payouts; HTTP Basic auth;
// RazorpayX-shaped answers and errors), for the payout adapter's tests. It keeps the payouts it made,
// dedupes POST /v1/payouts on X-Payout-Idempotency as RazorpayX does, lists payouts by reference_id,
// refuses IFSCs it does not know like RazorpayX refuses them, and can lose its answers (the payout
// is made, the caller sees a 503): the case that must never pay twice.
import { createHmac } from 'node:crypto'
import { createStandInServer, type StandInRequest, type StandInServer } from './standin-server.ts'

export interface StandInPayout {
  id: string
  entity: 'payout'
  fund_account_id: string
  amount: number
  currency: string
  mode: string
  purpose: string
  status: string
  reference_id: string
  narration: string
  status_details: { description: string | null } | null
}

export interface RazorpayXStandIn extends StandInServer {
  readonly payouts: StandInPayout[]
  readonly fundAccounts: Map<string, Record<string, unknown>>
  /** Status of the payouts it creates (RazorpayX answers `processing`, then calls back). */
  payoutStatus: string
  /** Make the payout but answer 503, as when the answer is lost on the way back. */
  loseAnswers: boolean
  /** A signed webhook body about one payout, as RazorpayX sends it. */
  webhook(event: string, payout: StandInPayout, secret: string, eventId: string): { payload: string; headers: Record<string, string> }
  reset(): void
}

const error = (status: number, description: string, field?: string) => ({ status, body: { error: { code: 'BAD_REQUEST_ERROR', description, source: 'business', step: 'NA', reason: 'NA', metadata: {}, ...(field ? { field } : {}) } } })
/** The IFSCs this stand-in knows; any other is refused, as RazorpayX refuses an IFSC it cannot find. */
export const KNOWN_IFSC = ['HDFC0001234', 'SBIN0000001', 'ICIC0000002']

export function createRazorpayXStandIn(options: { keyId: string; keySecret: string; accountNumber: string }): RazorpayXStandIn {
  const basic = `Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`
  let counter = 0
  const byKey = new Map<string, StandInPayout>()

  const api = (request: StandInRequest) => {
    if (request.headers.authorization !== basic) return error(401, 'Authentication failed')
    const body = request.body ?? {}
    const [path, query] = request.path.split('?') as [string, string | undefined]
    if (request.method === 'POST' && path === '/v1/contacts') {
      if (typeof body.name !== 'string' || body.name.length < 3) return error(400, 'The name must be at least 3 characters.', 'name')
      return { status: 201, body: { id: `cont_${++counter}`, entity: 'contact', name: body.name, type: body.type, reference_id: body.reference_id } }
    }
    if (request.method === 'POST' && path === '/v1/fund_accounts') {
      const bank = body.bank_account as Record<string, string> | undefined
      if (body.account_type === 'bank_account' && !KNOWN_IFSC.includes(bank?.ifsc ?? '')) return error(400, 'Invalid IFSC Code in Bank Account', 'ifsc')
      const id = `fa_${++counter}`
      standIn.fundAccounts.set(id, body)
      return { status: 201, body: { id, entity: 'fund_account', contact_id: body.contact_id, account_type: body.account_type } }
    }
    if (request.method === 'GET' && path === '/v1/payouts') {
      const params = new URLSearchParams(query ?? '')
      if (params.get('account_number') !== options.accountNumber) return error(400, 'The account number is invalid.', 'account_number')
      const items = standIn.payouts.filter((p) => p.reference_id === params.get('reference_id'))
      return { status: 200, body: { entity: 'collection', count: items.length, items } }
    }
    if (request.method === 'POST' && path === '/v1/payouts') {
      if (body.account_number !== options.accountNumber) return error(400, 'The account number is invalid.', 'account_number')
      if (!standIn.fundAccounts.has(String(body.fund_account_id))) return error(400, 'The id provided does not exist', 'fund_account_id')
      const key = String(request.headers['x-payout-idempotency'] ?? '')
      const again = key ? byKey.get(key) : undefined
      if (again) return { status: 200, body: again }
      const payout: StandInPayout = {
        id: `pout_${++counter}`,
        entity: 'payout',
        fund_account_id: String(body.fund_account_id),
        amount: Number(body.amount),
        currency: String(body.currency),
        mode: String(body.mode),
        purpose: String(body.purpose),
        status: standIn.payoutStatus,
        reference_id: String(body.reference_id),
        narration: String(body.narration),
        status_details: null,
      }
      standIn.payouts.push(payout)
      if (key) byKey.set(key, payout)
      if (standIn.loseAnswers) return { status: 503, body: { error: { code: 'SERVER_ERROR', description: 'Service unavailable' } } }
      return { status: 200, body: payout }
    }
    return error(404, 'The requested URL was not found on the server.')
  }

  const standIn = Object.assign(createStandInServer(api), {
    payouts: [] as StandInPayout[],
    fundAccounts: new Map<string, Record<string, unknown>>(),
    payoutStatus: 'processing',
    loseAnswers: false,
    webhook(event: string, payout: StandInPayout, secret: string, eventId: string) {
      const payload = JSON.stringify({ entity: 'event', account_id: 'acc_standin', event, contains: ['payout'], payload: { payout: { entity: payout } }, created_at: 1_795_000_000 })
      return { payload, headers: { 'content-type': 'application/json', 'x-razorpay-signature': createHmac('sha256', secret).update(payload).digest('hex'), 'x-razorpay-event-id': eventId } }
    },
    reset() {
      standIn.requests.length = 0
      standIn.payouts.length = 0
      standIn.fundAccounts.clear()
      byKey.clear()
      standIn.payoutStatus = 'processing'
      standIn.loseAnswers = false
      standIn.override = null
    },
  })
  return standIn
}
