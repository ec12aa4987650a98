// A small shop for order tests: delivery zones, a catalog with a few products, a partner, and
// helpers to place orders through the API.
import { randomUUID } from 'node:crypto'
import type { Clock } from '../../src/lib/clock.ts'
import { createCatalog } from '../../src/modules/catalog/index.ts'
import { importCatalog } from '../../src/modules/catalog/import.ts'
import { creditLedger } from '../../src/modules/ledgers/ledger.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import type { TestApp } from './app.ts'
import { type CustomerFixture, customerHeaders, givenPartner, type PartnerFixture } from './factories.ts'

export interface Shop {
  partner: PartnerFixture
  catalogId: string
  /** Product ids by slug: atta (₹300, stock 100), earbuds (₹1000, stock 100), hot (₹500, stock 50), old (inactive). */
  ids: Record<string, string>
}

export async function givenShop(t: TestApp, options: { hotStock?: number } = {}): Promise<Shop> {
  const db = t.deps.database.db
  await seedDeliveryZones(db)
  const catalog = await createCatalog(db, `Shop ${randomUUID()}`)
  await importCatalog(db, catalog.id, {
    categories: [{ slug: 'staples', name: 'Staples' }, { slug: 'audio', name: 'Audio' }],
    products: [
      { slug: 'atta', name: 'Atta 5 kg', brand: 'Aashirvaad', sku: 'A-1', categorySlug: 'staples', sellingPrice: '300.00', mrp: '320.00', stock: 100, weightGrams: 5000, images: ['https://img.example/atta.jpg'] },
      { slug: 'earbuds', name: 'Earbuds', brand: 'boAt', sku: 'E-1', categorySlug: 'audio', sellingPrice: '1000.00', mrp: '2000.00', stock: 100, weightGrams: 200 },
      { slug: 'hot', name: 'Hot deal', brand: 'boAt', sku: 'H-1', categorySlug: 'audio', sellingPrice: '500.00', mrp: '900.00', stock: options.hotStock ?? 50, weightGrams: 200 },
      { slug: 'old', name: 'Old', brand: 'X', sku: 'O-1', categorySlug: 'audio', sellingPrice: '10.00', mrp: '10.00', stock: 5, isActive: false },
    ],
  })
  const ids: Record<string, string> = {}
  for (const p of await db.query.products.findMany({ where: (p, { eq }) => eq(p.catalogId, catalog.id) })) ids[p.slug] = p.id
  const partner = await givenPartner(t.deps, `Shop partner ${randomUUID()}`, catalog.id)
  return { partner, catalogId: catalog.id, ids }
}

export const ADDRESS = {
  name: 'Asha Rao',
  phone: '9876543210',
  line1: '12 MG Road',
  landmark: 'Opposite the metro station',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560001',
}

export function placeOrder(t: TestApp, customer: CustomerFixture, payload: object, key: string = randomUUID()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/orders',
    headers: { ...customerHeaders(customer), 'x-idempotency-key': key },
    payload,
  })
}

export async function credit(t: TestApp, clock: Clock, customer: CustomerFixture, kind: 'WALLET_CASH' | 'REWARD_POINTS', amount: bigint) {
  await t.deps.database.db.transaction((tx) =>
    creditLedger(tx, { userId: customer.userId, partnerId: customer.partnerId, kind, amount, reason: 'PROMOTION', reference: 'test', at: clock.now() }),
  )
}

export async function stockOf(t: TestApp, productId: string): Promise<number> {
  const row = await t.deps.database.db.query.products.findFirst({ where: (p, { eq }) => eq(p.id, productId) })
  return row!.stock
}

/** Presses a button of the sandbox checkout page for the order's current session. */
export async function sandboxAction(t: TestApp, clientAction: { payload: { sessionId: string } }, action: 'pay' | 'fail' | 'close') {
  return t.app.inject({ method: 'POST', url: `/api/v1/sandbox/checkout/${clientAction.payload.sessionId}/${action}` })
}
