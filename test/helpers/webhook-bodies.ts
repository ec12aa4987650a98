// Webhook bodies as payment providers send them, and the ways a body can be changed in transit:
// the test of tampered, repeated and reordered deliveries (test/orders/webhook-deliveries.test.ts) builds
// its deliveries from these. Pure functions, no app.
import { randomUUID } from 'node:crypto'

export type RazorpayPaymentEvent = 'payment.authorized' | 'payment.captured' | 'payment.failed' | 'order.paid'
/** `payment` may carry more entity fields (they override the defaults), e.g. an error code. */
export function razorpayPaymentEvent(event: RazorpayPaymentEvent, payment: { id: string; order_id: string; amount: number } & Record<string, unknown>, accountId = 'acc_WebhookPlan1') {
  const status = event === 'payment.failed' ? 'failed' : event === 'payment.authorized' ? 'authorized' : 'captured'
  return {
    entity: 'event',
    account_id: accountId,
    event,
    contains: event === 'order.paid' ? ['payment', 'order'] : ['payment'],
    payload: {
      payment: {
        entity: {
          entity: 'payment',
          currency: 'INR',
          status,
          method: 'upi',
          captured: status === 'captured',
          description: 'Earbuds — ₹1,000 (boAt)',
          error_code: status === 'failed' ? 'BAD_REQUEST_ERROR' : null,
          error_description: status === 'failed' ? 'Payment was unsuccessful as the bank declined it' : null,
          created_at: 1_700_000_000,
          ...payment,
        },
      },
      ...(event === 'order.paid' ? { order: { entity: { id: payment.order_id, entity: 'order', amount: payment.amount, amount_paid: payment.amount, amount_due: 0, currency: 'INR', status: 'paid' } } } : {}),
    },
    created_at: 1_700_000_005,
  }
}

export function razorpayRefundEvent(event: 'refund.created' | 'refund.processed', refund: { id: string; payment_id: string; amount: number; ours: string | null }, accountId = 'acc_WebhookPlan1') {
  const { ours, ...entity } = refund
  return {
    entity: 'event',
    account_id: accountId,
    event,
    contains: ['refund', 'payment'],
    payload: {
      refund: {
        entity: {
          entity: 'refund',
          currency: 'INR',
          status: event === 'refund.processed' ? 'processed' : 'pending',
          speed_processed: 'normal',
          receipt: ours,
          notes: ours ? { refundId: ours } : [],
          ...entity,
        },
      },
      payment: { entity: { id: refund.payment_id, entity: 'payment', amount: refund.amount, currency: 'INR', status: 'refunded' } },
    },
    created_at: 1_700_000_010,
  }
}

export const uid = () => randomUUID().replace(/-/g, '').slice(0, 14)

export function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items]
  return items.flatMap((first, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [first, ...rest]))
}

/** Every byte changed, one at a time; letters and digits to another letter or digit, so many results are still JSON. */
export function oneByteChanges(raw: Buffer): Buffer[] {
  const substitute = (b: number) => {
    if (b >= 0x30 && b <= 0x38) return b + 1
    if (b === 0x39) return 0x30
    if ((b >= 0x41 && b <= 0x59) || (b >= 0x61 && b <= 0x79)) return b + 1
    if (b === 0x5a || b === 0x7a) return b - 25
    return b ^ 0x01 // punctuation, whitespace, and UTF-8 continuation bytes (which stay continuation bytes)
  }
  return [...raw].map((b, i) => {
    const changed = Buffer.from(raw)
    changed[i] = substitute(b)
    return changed
  })
}

/** The same JSON value written differently: other spacing, other key order, other escapes. */
export function reserialisations(raw: string): Record<string, string> {
  const value = JSON.parse(raw) as unknown
  const reversed = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(reversed) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)])) : v
  const firstKey = raw.indexOf('"') + 1
  const variants: Record<string, string> = {
    'parsed and re-stringified with 2-space indent': JSON.stringify(value, null, 2),
    'parsed and re-stringified with keys in reverse order': JSON.stringify(reversed(value)),
    'keys reversed and tab-indented': JSON.stringify(reversed(value), null, '\t'),
    'one character of a key written as a \\u escape': `${raw.slice(0, firstKey)}\\u${raw.charCodeAt(firstKey).toString(16).padStart(4, '0')}${raw.slice(firstKey + 1)}`,
  }
  if (/[\u0080-\uffff]/.test(raw)) variants['non-ASCII characters written as \\u escapes'] = raw.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return variants
}

export function withWhitespace(raw: string): Record<string, string> {
  return {
    'a leading space': ` ${raw}`,
    'a trailing newline': `${raw}\n`,
    'a trailing CRLF': `${raw}\r\n`,
    'a leading newline': `\n${raw}`,
    'a space after the first colon': raw.replace(':', ': '),
    'a space after the first comma': raw.replace(',', ', '),
    'a tab before the closing brace': `${raw.slice(0, -1)}\t}`,
  }
}

/** A seeded PRNG (mulberry32), so a failing shuffle can be replayed. */
export { seededRandom } from '../../src/lib/random.ts'
