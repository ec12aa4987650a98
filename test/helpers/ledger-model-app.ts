// The app of the ledger model test (test/orders/ledger-model.test.ts): one app and database for the
// file, partners with the point rules of test/helpers/ledger-model.ts, and what is checked after
// every command (balances, entries and the invariant sweep against the model). Importing this module
// registers the hooks that start and stop the app; `t` and `admin` are live bindings.
import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { createTestApp, type TestApp } from './app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenPartner, type PartnerFixture } from './factories.ts'
import { invariantViolations } from './invariants.ts'
import { type Kind, type Model, PINCODE, PRODUCTS, RULES, type Real, ZONE } from './ledger-model.ts'

// ---- the shop ----------------------------------------------------------------------------------

export const clock = new ManualClock(new Date('2026-11-24T11:00:00+05:30'))
export let t: TestApp
export let admin: string

export const productIds: string[] = []

export const ADDRESS = { name: 'Model Customer', phone: '9876543210', line1: '4 Ledger Lane', landmark: 'Near the bank', city: 'Agartala', state: 'Tripura', pincode: PINCODE }

export const partners: PartnerFixture[] = []

before(async () => {
  t = await createTestApp({ clock, env: { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AUTH_MAX: '1000000' } })
  const db = t.deps.database.db
  admin = await givenAdminToken(t.app, t.deps, 'ledger-model@admin.test', 'ADMIN')
  const zone = await adminPost('/delivery-zones', {
    name: 'Ledger model zone',
    standardSlabs: [{ upToGrams: ZONE.lightUpToGrams, charge: rupees(ZONE.lightCharge) }, { upToGrams: 1_000_000, charge: rupees(ZONE.heavyCharge) }],
    standardMinDays: 2,
    standardMaxDays: 4,
    expressAvailable: false,
    expressMinDays: 1,
    expressMaxDays: 1,
    freeShippingThreshold: rupees(ZONE.freeFrom),
    cutoffHour: 23,
    codAvailable: true,
    codLimit: '50000.00',
    codFee: rupees(ZONE.codFee),
    pincodes: [{ prefix: PINCODE, city: 'Agartala', state: 'Tripura' }],
  })
  assert.equal(zone.statusCode, 201, zone.body)
  const catalog = await createCatalog(db, 'Ledger model')
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'goods', name: 'Goods' }],
    products: PRODUCTS.map((p) => ({
      slug: p.slug, name: p.slug, brand: 'Model', sku: p.slug.toUpperCase(), categorySlug: 'goods',
      sellingPrice: rupees(p.price), mrp: rupees(p.price * 2n), stock: 1_000_000, weightGrams: p.weight,
    })),
  })
  const rows = await db.query.products.findMany({ where: (p, { eq }) => eq(p.catalogId, catalog.id) })
  for (const p of PRODUCTS) productIds.push(rows.find((r) => r.slug === p.slug)!.id)
  for (const [i, rules] of RULES.entries()) {
    const partner = await givenPartner(t.deps, `Ledger model ${i}`, catalog.id)
    if (rules) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/admin/partners/${partner.partnerId}/pricing`,
        headers: { authorization: `Bearer ${admin}` },
        payload: { rewardEarnPercent: Number(rules.earnPercent), rewardRedeemCapPercent: Number(rules.redeemCapPercent), paisePerPoint: Number(rules.paisePerPoint) },
      })
      assert.equal(saved.statusCode, 200, saved.body)
    }
    partners.push(partner)
  }
})
after(() => t.close())

// ---- money and HTTP ----------------------------------------------------------------------------

export function rupees(paise: bigint): string {
  const abs = paise < 0n ? -paise : paise
  return `${paise < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`
}
export function paise(text: string): bigint {
  const match = /^(-?)(\d+)\.(\d\d)$/.exec(text)
  assert.ok(match, `not an amount: ${text}`)
  const value = BigInt(match[2]!) * 100n + BigInt(match[3]!)
  return match[1] ? -value : value
}

export function adminPost(url: string, payload: object) {
  return t.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, payload })
}
export function customerCall(customer: CustomerFixture, method: 'GET' | 'POST', url: string, payload?: object, key?: string) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...customerHeaders(customer), ...(key ? { 'x-idempotency-key': key } : {}) },
    ...(payload ? { payload } : {}),
  })
}
export function expectStatus(res: { statusCode: number; body: string }, status: number, what: string) {
  assert.equal(res.statusCode, status, `${what}: expected ${status}, got ${res.statusCode} ${res.body}`)
}

// ---- what is checked after every command -------------------------------------------------------

export interface Entry {
  kind: Kind
  amount: string
  reason: string
}

export async function walletOf(customer: CustomerFixture) {
  const entries: Entry[] = []
  let balances: { walletCash: string; rewardPoints: number } | undefined
  for (let page = 1; ; page++) {
    const res = await customerCall(customer, 'GET', `/wallet?page=${page}&limit=100`)
    expectStatus(res, 200, 'GET /wallet')
    const body = res.json()
    balances ??= body.data.balances
    entries.push(...body.data.entries)
    if (page >= body.meta.totalPages) break
  }
  return { balances: balances!, entries }
}

/** Commands run (and checked) by name, for the summary line. */
export const executed = new Map<string, number>()

export async function verify(m: Model, r: Real, after: string) {
  const name = after.slice(0, after.indexOf('('))
  executed.set(name, (executed.get(name) ?? 0) + 1)
  for (const [i, customer] of r.customers.entries()) {
    const want = m.customers[i]!
    const { balances, entries } = await walletOf(customer)
    const wallet = paise(balances.walletCash)
    const points = BigInt(balances.rewardPoints)
    assert.equal(wallet, want.wallet, `after ${after}: customer ${i} Wallet Cash ${rupees(wallet)}, model ${rupees(want.wallet)}`)
    assert.equal(points, want.points, `after ${after}: customer ${i} Reward Points ${points}, model ${want.points}`)
    const amountOf = (e: Entry) => (e.kind === 'WALLET_CASH' ? paise(e.amount) : BigInt(e.amount))
    const sum = (kind: Kind) => entries.filter((e) => e.kind === kind).reduce((s, e) => s + amountOf(e), 0n)
    assert.equal(sum('WALLET_CASH'), wallet, `after ${after}: customer ${i} Wallet Cash balance is not the sum of its entries`)
    assert.equal(sum('REWARD_POINTS'), points, `after ${after}: customer ${i} Reward Points balance is not the sum of its entries`)
    assert.ok(wallet >= 0n && points >= 0n, `after ${after}: customer ${i} has a negative balance`)
    const actual = entries.map((e) => `${e.kind} ${e.reason} ${amountOf(e)}`).sort()
    assert.deepEqual(actual, [...want.entries].sort(), `after ${after}: customer ${i} ledger entries differ from the model's`)
  }
  const fresh = (await invariantViolations(t.deps.database.db, { now: clock.now() })).filter((v) => !r.known.has(v))
  assert.deepEqual(fresh, [], `after ${after}: invariant sweep`)
}
