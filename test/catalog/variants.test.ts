// Variants, step 1 (decision 0043): a product without options has one variant, its default, which
// is the product's own row. Products answer `options`, `priceRange` and (one product) `variants`;
// cart and order lines take an optional `variantId` (the default, or a 400 naming it); order lines
// name the variant sold; migration 0034 names it on every line placed before.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

let t: TestApp
let shop: Shop
let customer: CustomerFixture
before(async () => {
  t = await createTestApp()
  shop = await givenShop(t)
  customer = await givenCustomer(t.app, shop.partner)
})
after(() => t?.close())

const read = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': shop.partner.apiKey } })
const quote = (items: object[]) => t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items } })
/** The default variant's id, written out here from the rule (var_ for prd_), not taken from the code. */
const defaultOf = (productId: string) => `var_${productId.slice('prd_'.length)}`

test('a product without options answers one variant, its default: the product\'s own SKU, price, MRP and stock, with a price range of its price', async () => {
  const res = await read('/products/atta')
  assert.equal(res.statusCode, 200, res.body)
  const product = res.json().data
  assert.deepEqual(product.options, [])
  assert.deepEqual(product.priceRange, { min: '300.00', max: '300.00' })
  assert.deepEqual(product.variants, [
    { id: defaultOf(shop.ids.atta!), sku: 'A-1', title: null, options: [], sellingPrice: '300.00', mrp: '320.00', stock: 100, isActive: true },
  ])
  // The flat fields keep their meaning.
  assert.deepEqual([product.sku, product.sellingPrice, product.mrp, product.stock], ['A-1', '300.00', '320.00', 100])
})

test('the product list answers options and priceRange for each product, and no variants (GET /products/{slug} has them)', async () => {
  const res = await read('/products?limit=20')
  assert.equal(res.statusCode, 200, res.body)
  const earbuds = res.json().data.find((p: { slug: string }) => p.slug === 'earbuds')
  assert.deepEqual(earbuds.options, [])
  assert.deepEqual(earbuds.priceRange, { min: '1000.00', max: '1000.00' })
  assert.equal('variants' in earbuds, false)
})

test('a quote line naming the default variant prices as one without it', async () => {
  const without = await quote([{ productId: shop.ids.earbuds, quantity: 2 }])
  const named = await quote([{ productId: shop.ids.earbuds, variantId: defaultOf(shop.ids.earbuds!), quantity: 2 }])
  assert.equal(named.statusCode, 200, named.body)
  assert.equal(named.json().data.totalAmount, without.json().data.totalAmount)
})

test("a variant of another product, or one that does not exist, is a 400 naming variantId; nothing is written", async () => {
  const other = await quote([{ productId: shop.ids.earbuds, variantId: defaultOf(shop.ids.atta!), quantity: 1 }])
  assert.equal(other.statusCode, 400, other.body)
  assert.equal(other.json().message, `variantId ${defaultOf(shop.ids.atta!)} is not a variant of product ${shop.ids.earbuds}`)
  const orderCount = async () => (await queryRows<{ n: number }>(t.deps.database.db, sql`select count(*)::int as n from orders`))[0]!.n
  const ordersBefore = await orderCount()
  const order = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta, variantId: 'var_NOPE', quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(order.statusCode, 400, order.body)
  assert.match(order.json().message, /^variantId var_NOPE is not a variant of product /)
  assert.equal(await orderCount(), ordersBefore)
})

test('an order line names the variant sold, whether the request named it or not, and the order answer shows it', async () => {
  const res = await placeOrder(t, customer, {
    items: [
      { productId: shop.ids.atta, quantity: 1 },
      { productId: shop.ids.earbuds, variantId: defaultOf(shop.ids.earbuds!), quantity: 1 },
    ],
    shippingAddress: ADDRESS,
    paymentMode: 'COD',
  })
  assert.equal(res.statusCode, 201, res.body)
  const lines = res.json().data.items.map((i: { productId: string; variantId: string }) => [i.productId, i.variantId])
  assert.deepEqual(lines.sort(), [
    [shop.ids.atta, defaultOf(shop.ids.atta!)],
    [shop.ids.earbuds, defaultOf(shop.ids.earbuds!)],
  ].sort())
  const read = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${res.json().data.id}`, headers: customerHeaders(customer) })
  assert.deepEqual(read.json().data.items.map((i: { variantId: string }) => i.variantId).sort(), lines.map((l: string[]) => l[1]).sort())
})

test('migration 0034 names the default variant on every line placed before it, then requires a variant', async () => {
  const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.hot, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(placed.statusCode, 201, placed.body)
  const db = t.deps.database.db
  // Back to the table as it was before the migration, then the migration's own statements.
  await db.execute(sql`alter table order_items drop column variant_id`)
  const migration = readFileSync(new URL('../../drizzle/0034_order_lines_name_their_variant.sql', import.meta.url), 'utf8')
  for (const statement of migration.split('--> statement-breakpoint')) await db.execute(sql.raw(statement))
  const lines = await queryRows<{ product_id: string; variant_id: string }>(db, sql`select product_id, variant_id from order_items`)
  assert.ok(lines.length >= 3)
  for (const line of lines) assert.equal(line.variant_id, defaultOf(line.product_id))
  await assert.rejects(db.execute(sql`update order_items set variant_id = null where product_id = ${shop.ids.hot!}`), (err: Error) =>
    /null value in column "variant_id"/.test(String((err.cause as Error | undefined)?.message ?? err.message)),
  )
})
