// What the bench (bench/run.ts) and the stress run (scripts/stress.ts) both send: signed-in
// customers of the bench partner, and COD orders of one item, each with its own idempotency key.
import { randomUUID } from 'node:crypto'

export const BENCH_ADDRESS = { name: 'Asha Rao', phone: '9876543210', line1: '12 MG Road', landmark: 'Near metro', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }

/** Access tokens of `count` customers (phones 9800000000 + n, as bench/orders-data.ts creates them), 20 at a time. */
export async function customerTokens(api: string, partner: { partnerId: string; partnerSecret: string }, count: number): Promise<string[]> {
  const issue = async (n: number) => {
    const res = await fetch(`${api}/auth/customer-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.partnerSecret },
      body: JSON.stringify({ phone: `9${String(800_000_000 + n)}`, name: 'Bench' }),
    })
    if (!res.ok) throw new Error(`customer-token: ${res.status} ${await res.text()}`)
    return ((await res.json()) as { data: { accessToken: string } }).data.accessToken
  }
  const tokens: string[] = []
  for (let n = 0; n < count; n += 20) tokens.push(...(await Promise.all(Array.from({ length: Math.min(20, count - n) }, (_, k) => issue(n + k)))))
  return tokens
}

/** The n-th order of a run: a COD order of one unit, round-robin over customers and products, its own key. */
/** What an order line names: a product, and its variant when the product has options (--variants). */
export interface OrderLine {
  productId: string
  variantId?: string
}

export function codOrders(label: string) {
  const runId = randomUUID()
  return (n: number, tokens: string[], lines: OrderLine[]) => ({
    path: '/api/v1/orders',
    headers: { authorization: `Bearer ${tokens[n % tokens.length]!}`, 'x-idempotency-key': `${label}-${runId}-${n}` },
    body: JSON.stringify({ items: [{ ...lines[n % lines.length]!, quantity: 1 }], shippingAddress: BENCH_ADDRESS, paymentMode: 'COD' }),
  })
}
