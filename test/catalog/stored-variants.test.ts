// Variants, step 2 (decision 0043): a product given options in the back office has stored variants,
// one per combination; its flat SKU, price, MRP and stock become their summary and are written only
// through them (409 otherwise). Carts and orders sell a variant: required on a product with several,
// priced, taxed and reserved by it, its line keeping the variant as sold; releases give the units
// back to the variant and the summary.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/db/client.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { seedDeliveryZones } from '../../src/modules/checkout/seed-zones.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenAdminToken, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { placeOrder } from '../helpers/shop.ts'

const clock = new ManualClock(new Date('2026-11-29T10:00:00+05:30'))
/** Delivered in Maharashtra, where the seller is registered: CGST + SGST. */
const ADDRESS = { name: 'Asha Rao', phone: '9876543210', line1: '4 Marine Drive', landmark: 'Near the Oval', city: 'Mumbai', state: 'Maharashtra', pincode: '400001' }
const SELLER = { legalName: 'Acme Retail Private Limited', gstin: '27AAPFU0939F1ZV', address: { line1: '12 Nariman Point', city: 'Mumbai', state: 'Maharashtra', pincode: '400021' } }

let t: TestApp
let admin: string
let partner: PartnerFixture
let customer: CustomerFixture
let catalogId: string
let categoryId: string

const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })
const publicGet = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': partner.apiKey } })
const quote = (items: object[]) =>
  t.app.inject({ method: 'POST', url: '/api/v1/wallet/quote', headers: customerHeaders(customer), payload: { items, pincode: ADDRESS.pincode, paymentMode: 'COD' } })
const order = (items: object[]) => placeOrder(t, customer, { items, shippingAddress: ADDRESS, paymentMode: 'COD' })

async function givenProduct(slug: string, fields: object = {}) {
  const res = await adminCall('POST', `/catalogs/${catalogId}/products`, {
    name: `Kurta ${slug}`, slug, brand: 'Fabindia', sku: slug.toUpperCase(), categoryId, sellingPrice: '999.00', mrp: '1299.00', stock: 7, hsnCode: '6211', gstRateBps: 500, ...fields,
  })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data.id as string
}

const SIZE_COLOUR = [
  { name: 'Size', values: ['M', 'L'] },
  { name: 'Colour', values: ['Red', 'Blue'] },
]
const variant = (size: string, colour: string, sku: string, price: string, stock: number, extra: object = {}) => ({
  options: [{ name: 'Size', value: size }, { name: 'Colour', value: colour }],
  sku, sellingPrice: price, mrp: '1499.00', stock, ...extra,
})

/** A product with four variants: M/Red 899 (3), M/Blue 999 (4), L/Red 1099 (5), L/Blue 1199 inactive (6). */
async function givenKurta(slug: string) {
  const productId = await givenProduct(slug)
  const up = slug.toUpperCase()
  const res = await adminCall('PUT', `/products/${productId}/variants`, {
    options: SIZE_COLOUR,
    variants: [
      variant('M', 'Red', `${up}-M-RED`, '899.00', 3),
      variant('M', 'Blue', `${up}-M-BLUE`, '999.00', 4),
      variant('L', 'Red', `${up}-L-RED`, '1099.00', 5, { hsnCode: '6109', gstRateBps: 1800 }),
      variant('L', 'Blue', `${up}-L-BLUE`, '1199.00', 6, { isActive: false }),
    ],
  })
  assert.equal(res.statusCode, 200, res.body)
  const variants = res.json().data.variants as { id: string; title: string; sku: string; stock: number }[]
  return { productId, slug, variants, id: (title: string) => variants.find((v) => v.title === title)!.id }
}

const productRow = async (id: string) => (await queryRows<{ sku: string; selling_price: string; mrp: string; stock: number }>(t.deps.database.db, sql`select sku, selling_price::text, mrp::text, stock from products where id = ${id}`))[0]!
const variantStock = async (id: string) => (await queryRows<{ stock: number }>(t.deps.database.db, sql`select stock from product_variants where id = ${id}`))[0]!.stock

before(async () => {
  t = await createTestApp({ clock })
  await seedDeliveryZones(t.deps.database.db)
  admin = await givenAdminToken(t.app, t.deps, 'variants@example.com', 'ADMIN')
  catalogId = (await adminCall('POST', '/catalogs', { name: 'Kurta shop' })).json().data.id
  categoryId = (await adminCall('POST', `/catalogs/${catalogId}/categories`, { name: 'Ethnic wear', slug: 'ethnic' })).json().data.id
  assert.equal((await adminCall('PUT', `/catalogs/${catalogId}/seller`, SELLER)).statusCode, 200)
  partner = await givenPartner(t.deps, 'Variants partner', catalogId)
  customer = await givenCustomer(t.app, partner)
})
after(() => t?.close())

describe('the back office writes a product\'s options and variants', () => {
  test('a product given options answers them, every variant, and a summary: the lowest active price, the active stock\'s sum, the first SKU', async () => {
    const kurta = await givenKurta('summary-kurta')
    const detail = (await publicGet('/products/summary-kurta')).json().data
    assert.deepEqual(detail.options, SIZE_COLOUR)
    assert.deepEqual(
      detail.variants.map((v: { title: string; options: object; sku: string; sellingPrice: string; stock: number; isActive: boolean }) => [v.title, v.sku, v.sellingPrice, v.stock, v.isActive]),
      [
        ['M / Red', 'SUMMARY-KURTA-M-RED', '899.00', 3, true],
        ['M / Blue', 'SUMMARY-KURTA-M-BLUE', '999.00', 4, true],
        ['L / Red', 'SUMMARY-KURTA-L-RED', '1099.00', 5, true],
        ['L / Blue', 'SUMMARY-KURTA-L-BLUE', '1199.00', 6, false],
      ],
    )
    assert.deepEqual(detail.variants[0].options, [{ name: 'Size', value: 'M' }, { name: 'Colour', value: 'Red' }])
    // The inactive L / Blue counts in neither the price range nor the stock.
    assert.deepEqual(detail.priceRange, { min: '899.00', max: '1099.00' })
    assert.deepEqual([detail.sku, detail.sellingPrice, detail.mrp, detail.stock], ['SUMMARY-KURTA-M-RED', '899.00', '1499.00', 12])
    const listed = (await publicGet('/products?limit=100')).json().data.find((p: { slug: string }) => p.slug === 'summary-kurta')
    assert.deepEqual([listed.options, listed.priceRange, listed.stock], [SIZE_COLOUR, { min: '899.00', max: '1099.00' }, 12])
    const inAdmin = (await adminCall('GET', `/products/${kurta.productId}`)).json().data
    assert.equal(inAdmin.variants.length, 4)
    assert.deepEqual([inAdmin.variants[2].hsnCode, inAdmin.variants[2].gstRateBps, inAdmin.variants[0].hsnCode], ['6109', 1800, null])
  })

  test("the first variant takes the default variant's id, so units held by earlier orders come back to a variant", async () => {
    const productId = await givenProduct('convert-kurta')
    const held = await order([{ productId, quantity: 2 }])
    assert.equal(held.statusCode, 201, held.body)
    const grid = await adminCall('PUT', `/products/${productId}/variants`, {
      options: [{ name: 'Size', values: ['M', 'L'] }],
      variants: [
        { options: [{ name: 'Size', value: 'M' }], sku: 'CONVERT-M', sellingPrice: '999.00', mrp: '1299.00', stock: 10 },
        { options: [{ name: 'Size', value: 'L' }], sku: 'CONVERT-L', sellingPrice: '999.00', mrp: '1299.00', stock: 10 },
      ],
    })
    assert.equal(grid.statusCode, 200, grid.body)
    const first = grid.json().data.variants[0]
    assert.equal(first.id, held.json().data.items[0].variantId)
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${held.json().data.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Ordered the wrong size' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(await variantStock(first.id), 12)
    assert.equal((await productRow(productId)).stock, 22)
  })

  test("the flat SKU, price, MRP and stock of a product with variants are a 409 saying to write the variant; other fields write as before", async () => {
    const kurta = await givenKurta('flat-kurta')
    for (const [method, url, body] of [
      ['PATCH', `/products/${kurta.productId}`, { sellingPrice: '10.00' }],
      ['PATCH', `/products/${kurta.productId}`, { stock: 100, name: 'Renamed' }],
      ['PATCH', `/products/${kurta.productId}`, { sku: 'NEW-SKU' }],
      ['POST', `/products/${kurta.productId}/stock`, { delta: 5 }],
    ] as const) {
      const res = await adminCall(method, url, body)
      assert.equal(res.statusCode, 409, `${url} ${JSON.stringify(body)}: ${res.body}`)
      assert.match(res.json().message, new RegExp(`^Product ${kurta.productId} has variants: its .+ from them; write the variant instead \\(PATCH /admin/products/${kurta.productId}/variants/\\{variantId\\}\\)$`))
    }
    assert.equal((await productRow(kurta.productId)).stock, 12)
    const renamed = await adminCall('PATCH', `/products/${kurta.productId}`, { name: 'Kurta, renamed', description: 'Cotton' })
    assert.equal(renamed.statusCode, 200, renamed.body)
    assert.equal(renamed.json().data.name, 'Kurta, renamed')
  })

  test("a grid saved without a variant's stock keeps the units it has then (an order since the grid was read keeps its take); a new variant without one has none; the product's own units go to the variant that takes its default's id", async () => {
    const kurta = await givenKurta('kept-stock-kurta')
    const read = (await adminCall('GET', `/products/${kurta.productId}`)).json().data
    const sold = await order([{ productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 1 }])
    assert.equal(sold.statusCode, 201, sold.body)
    const grid = read.variants.map((v: { id: string; options: object; sku: string; sellingPrice: string; mrp: string; isActive: boolean }) => ({ id: v.id, options: v.options, sku: v.sku, sellingPrice: v.sellingPrice, mrp: v.mrp, isActive: v.isActive }))
    grid[1].stock = 9
    grid.push({ options: [{ name: 'Size', value: 'L' }, { name: 'Colour', value: 'Red' }], sku: 'KEPT-NEW', sellingPrice: '999.00', mrp: '1499.00' })
    grid.splice(2, 1) // L / Red goes; a new L / Red takes its place with no units given
    const saved = await adminCall('PUT', `/products/${kurta.productId}/variants`, { options: SIZE_COLOUR, variants: grid })
    assert.equal(saved.statusCode, 200, saved.body)
    assert.deepEqual(saved.json().data.variants.map((v: { title: string; stock: number }) => [v.title, v.stock]), [['M / Red', 2], ['M / Blue', 9], ['L / Blue', 6], ['L / Red', 0]])
    // A product without options given some: its 7 units go to the first variant, which takes its default variant's id.
    const plain = await givenProduct('kept-stock-plain')
    const first = await adminCall('PUT', `/products/${plain}/variants`, {
      options: [{ name: 'Size', values: ['M', 'L'] }],
      variants: [{ options: [{ name: 'Size', value: 'M' }], sku: 'KSP-M', sellingPrice: '999.00', mrp: '1299.00' }, { options: [{ name: 'Size', value: 'L' }], sku: 'KSP-L', sellingPrice: '999.00', mrp: '1299.00' }],
    })
    assert.equal(first.statusCode, 200, first.body)
    assert.deepEqual(first.json().data.variants.map((v: { id: string; stock: number }) => [v.id, v.stock]), [[`var_${plain.slice(4)}`, 7], [first.json().data.variants[1].id, 0]])
  })

  test('one variant patched: its price, stock and active flag move the summary; the default of a product without options is the product (409); an unknown variant is a 404', async () => {
    const kurta = await givenKurta('patch-kurta')
    const cheaper = await adminCall('PATCH', `/products/${kurta.productId}/variants/${kurta.id('L / Red')}`, { sellingPrice: '799.00', stock: 1 })
    assert.equal(cheaper.statusCode, 200, cheaper.body)
    assert.deepEqual(await productRow(kurta.productId), { sku: 'PATCH-KURTA-M-RED', selling_price: '79900', mrp: '149900', stock: 8 })
    const off = await adminCall('PATCH', `/products/${kurta.productId}/variants/${kurta.id('L / Red')}`, { isActive: false })
    assert.equal(off.statusCode, 200, off.body)
    assert.deepEqual(await productRow(kurta.productId), { sku: 'PATCH-KURTA-M-RED', selling_price: '89900', mrp: '149900', stock: 7 })
    const plain = await givenProduct('plain-kurta')
    const defaultId = `var_${plain.slice('prd_'.length)}`
    const conflict = await adminCall('PATCH', `/products/${plain}/variants/${defaultId}`, { stock: 3 })
    assert.equal(conflict.statusCode, 409, conflict.body)
    assert.equal(conflict.json().message, `Product ${plain} has no options: its default variant is the product itself, write it with PATCH /admin/products/${plain}`)
    assert.equal((await adminCall('PATCH', `/products/${kurta.productId}/variants/var_NOPE`, { stock: 3 })).statusCode, 404)
    const above = await adminCall('PATCH', `/products/${kurta.productId}/variants/${kurta.id('M / Red')}`, { sellingPrice: '2000.00' })
    assert.equal(above.statusCode, 400)
    assert.equal(above.json().message, 'sellingPrice must not be greater than mrp')
  })

  test('a grid with an unknown option value, a repeated combination, a missing option, a bad barcode, a repeated option or SKU, or 251 variants is a 400 naming the field; nothing is written', async () => {
    const productId = await givenProduct('bad-grid-kurta')
    const m = { name: 'Size', value: 'M' }
    const grid = (variants: object[], options: object[] = [{ name: 'Size', values: ['M', 'L'] }]) => adminCall('PUT', `/products/${productId}/variants`, { options, variants })
    const line = (over: object = {}) => ({ options: [m], sku: 'BG-M', sellingPrice: '10.00', mrp: '10.00', ...over })
    const cases: [Promise<{ statusCode: number; json: () => { message: string } }>, string][] = [
      [grid([line({ options: [{ name: 'Size', value: 'XXL' }] })]), 'variants[0].options: XXL is not a value of option Size (M, L)'],
      [grid([line(), line({ sku: 'BG-M2' })]), 'variants[1].options repeats the combination of variants[0] (M)'],
      [grid([line({ options: [] })]), 'variants[0].options must give one value for each option (Size)'],
      [grid([line({ options: [{ name: 'Colour', value: 'M' }] })]), 'variants[0].options must give a value for option Size'],
      [grid([line({ barcode: '8901234567891' })]), 'variants[0].barcode 8901234567891 is not a GTIN: its last digit is not its check digit'],
      [grid([line(), line({ options: [{ name: 'Size', value: 'L' }] })]), 'variants[1].sku BG-M is also the SKU of variants[0]'],
      [grid([line()], [{ name: 'Size', values: ['M'] }, { name: 'size', values: ['L'] }]), 'options[1].name size is used twice'],
      [grid([line()], [{ name: 'Size', values: ['M', 'm'] }]), 'options[0].values lists m twice'],
    ]
    for (const [pending, message] of cases) {
      const res = await pending
      assert.equal(res.statusCode, 400, message)
      assert.equal(res.json().message, message)
    }
    const many = Array.from({ length: 251 }, (_, i) => line({ options: [{ name: 'Size', value: `S${i}` }], sku: `BG-${i}` }))
    const tooMany = await grid(many, [{ name: 'Size', values: Array.from({ length: 100 }, (_, i) => `S${i}`) }])
    assert.equal(tooMany.statusCode, 400)
    assert.deepEqual(tooMany.json().message, ['variants must contain no more than 250 elements'])
    assert.equal((await adminCall('GET', `/products/${productId}`)).json().data.options.length, 0)
    // A valid GTIN-13 (8901234567890: the check digit of 890123456789 is 0) is taken.
    const good = await grid([line({ barcode: '8901234567890' })])
    assert.equal(good.statusCode, 200, good.body)
    assert.equal(good.json().data.variants[0].barcode, '8901234567890')
  })

  test("a SKU is unique in the catalog across products and variants: a variant taking a product's, or a product a variant's, is a 409", async () => {
    await givenKurta('sku-kurta')
    await givenProduct('sku-plain')
    const productId = await givenProduct('sku-other')
    const taken = await adminCall('PUT', `/products/${productId}/variants`, {
      options: [{ name: 'Size', values: ['M'] }],
      variants: [{ options: [{ name: 'Size', value: 'M' }], sku: 'SKU-KURTA-L-RED', sellingPrice: '10.00', mrp: '10.00' }],
    })
    assert.equal(taken.statusCode, 409, taken.body)
    assert.equal(taken.json().message, 'variants[0].sku SKU-KURTA-L-RED is already the SKU of another product or variant in this catalog')
    const productTaking = await adminCall('POST', `/catalogs/${catalogId}/products`, { name: 'X', slug: 'sku-x', brand: 'B', sku: 'SKU-KURTA-M-BLUE', categoryId, sellingPrice: '1', mrp: '1' })
    assert.equal(productTaking.statusCode, 409, productTaking.body)
    assert.equal(productTaking.json().message, 'sku SKU-KURTA-M-BLUE is already the SKU of another product or variant in this catalog')
    const renaming = await adminCall('PATCH', `/products/${productId}`, { sku: 'SKU-KURTA-L-BLUE' })
    assert.equal(renaming.statusCode, 409, renaming.body)
    const otherProduct = await adminCall('PUT', `/products/${productId}/variants`, {
      options: [{ name: 'Size', values: ['M'] }],
      variants: [{ options: [{ name: 'Size', value: 'M' }], sku: 'SKU-PLAIN', sellingPrice: '10.00', mrp: '10.00' }],
    })
    assert.equal(otherProduct.statusCode, 409, otherProduct.body)
    assert.equal(otherProduct.json().message, 'variants[0].sku SKU-PLAIN is already the SKU of another product or variant in this catalog')
  })
})

describe('carts and orders sell a variant', () => {
  test('a line of a product with several variants must name one: a 400 naming variantId; a variant of another product is a 400', async () => {
    const kurta = await givenKurta('cart-kurta')
    const missing = await quote([{ productId: kurta.productId, quantity: 1 }])
    assert.equal(missing.statusCode, 400, missing.body)
    assert.equal(missing.json().message, `items[0].variantId is required: product ${kurta.productId} has several variants (GET /products/{slug}: variants[].id)`)
    const other = await givenKurta('cart-other')
    const stranger = await quote([{ productId: kurta.productId, variantId: other.id('M / Red'), quantity: 1 }])
    assert.equal(stranger.statusCode, 400)
    assert.equal(stranger.json().message, `variantId ${other.id('M / Red')} is not a variant of product ${kurta.productId}`)
    const twice = await quote([{ productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 1 }, { productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 2 }])
    assert.equal(twice.statusCode, 400)
    assert.equal(twice.json().message, `items must not list variant ${kurta.id('M / Red')} of product ${kurta.productId} twice`)
    const inactive = await quote([{ productId: kurta.productId, variantId: kurta.id('L / Blue'), quantity: 1 }])
    assert.equal(inactive.statusCode, 400)
    assert.equal(inactive.json().message, `Product ${kurta.productId} is not available`)
  })

  test('a query-string cart names a variant as productId:variantId:quantity; without it, a product with several variants is the same 400', async () => {
    const kurta = await givenKurta('query-kurta')
    const deliveryQuote = (items: string) => t.app.inject({ method: 'GET', url: `/api/v1/checkout/delivery-quote?pincode=${ADDRESS.pincode}&items=${items}`, headers: customerHeaders(customer) })
    const named = await deliveryQuote(`${kurta.productId}:${kurta.id('M / Blue')}:2`)
    assert.equal(named.statusCode, 200, named.body)
    const without = await deliveryQuote(`${kurta.productId}:2`)
    assert.equal(without.statusCode, 400)
    assert.equal(without.json().message, `items[0].variantId is required: product ${kurta.productId} has several variants (GET /products/{slug}: variants[].id)`)
  })

  test("two variants of one product in one order: each priced, taxed by its own HSN code and rate, and its line kept as sold", async () => {
    const kurta = await givenKurta('order-kurta')
    const items = [
      { productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 2 },
      { productId: kurta.productId, variantId: kurta.id('L / Red'), quantity: 1 },
    ]
    const quoted = await quote(items)
    assert.equal(quoted.statusCode, 200, quoted.body)
    assert.equal(quoted.json().data.itemsTotal, '2897.00')
    const placed = await order(items)
    assert.equal(placed.statusCode, 201, placed.body)
    const lines = placed.json().data.items
    assert.deepEqual(
      lines.map((l: { variantId: string; variantTitle: string; options: object; sku: string; unitPrice: string; hsnCode: string; gstRateBps: number }) => [l.variantId, l.variantTitle, l.sku, l.unitPrice, l.hsnCode, l.gstRateBps]),
      [
        [kurta.id('M / Red'), 'M / Red', 'ORDER-KURTA-M-RED', '899.00', '6211', 500],
        [kurta.id('L / Red'), 'L / Red', 'ORDER-KURTA-L-RED', '1099.00', '6109', 1800],
      ],
    )
    assert.deepEqual(lines[1].options, [{ name: 'Size', value: 'L' }, { name: 'Colour', value: 'Red' }])
    assert.equal(placed.json().data.totalAmount, quoted.json().data.totalAmount)
    // Stock: each variant's own, and the product's summary, moved together.
    assert.equal(await variantStock(kurta.id('M / Red')), 1)
    assert.equal(await variantStock(kurta.id('L / Red')), 4)
    assert.equal((await productRow(kurta.productId)).stock, 12 - 3)
    // The tax invoice describes each line with its variant, at its own HSN code and rate.
    const invoice = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${placed.json().data.id}/invoice`, headers: customerHeaders(customer) })
    assert.equal(invoice.statusCode, 200, invoice.body)
    const goods = invoice.json().data.invoices.flatMap((d: { lines: { kind: string; description: string; hsnCode: string; gstRateBps: number }[] }) => d.lines).filter((l: { kind: string }) => l.kind === 'GOODS')
    assert.deepEqual(
      goods.map((l: { description: string; hsnCode: string; gstRateBps: number }) => [l.description, l.hsnCode, l.gstRateBps]),
      [
        ['Kurta order-kurta (M / Red)', '6211', 500],
        ['Kurta order-kurta (L / Red)', '6109', 1800],
      ],
    )
    // A renamed variant leaves the sold line as it was.
    await adminCall('PATCH', `/products/${kurta.productId}/variants/${kurta.id('M / Red')}`, { sku: 'RENAMED-M-RED' })
    const read = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${placed.json().data.id}`, headers: customerHeaders(customer) })
    assert.equal(read.json().data.items[0].sku, 'ORDER-KURTA-M-RED')
  })

  test('a variant sold out is a 409 naming it while its siblings still sell; a cancellation gives the units back to the variant and the summary', async () => {
    const kurta = await givenKurta('stock-kurta')
    const all = await order([{ productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 3 }])
    assert.equal(all.statusCode, 201, all.body)
    const short = await order([{ productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 1 }])
    assert.equal(short.statusCode, 409, short.body)
    assert.equal(short.json().message, `Product ${kurta.productId} variant ${kurta.id('M / Red')} is out of stock: 1 requested, 0 available`)
    const sibling = await order([{ productId: kurta.productId, variantId: kurta.id('M / Blue'), quantity: 1 }])
    assert.equal(sibling.statusCode, 201, sibling.body)
    assert.equal((await publicGet('/products/stock-kurta')).json().data.stock, 12 - 4)
    const cancelled = await t.app.inject({ method: 'POST', url: `/api/v1/orders/${all.json().data.id}/cancel`, headers: customerHeaders(customer), payload: { reason: 'Changed my mind' } })
    assert.equal(cancelled.statusCode, 200, cancelled.body)
    assert.equal(await variantStock(kurta.id('M / Red')), 3)
    assert.equal((await productRow(kurta.productId)).stock, 12 - 1)
    assert.equal((await publicGet('/products/stock-kurta')).json().data.variants[0].stock, 3)
  })

  test("a parcel of a variant weighs the variant's units (its weight, else the product's), and the pick list names the variant", async () => {
    const kurta = await givenKurta('ship-kurta')
    await adminCall('PATCH', `/products/${kurta.productId}/variants/${kurta.id('M / Red')}`, { weightGrams: 1250 })
    const placed = await order([{ productId: kurta.productId, variantId: kurta.id('M / Red'), quantity: 2 }, { productId: kurta.productId, variantId: kurta.id('M / Blue'), quantity: 1 }])
    assert.equal(placed.statusCode, 201, placed.body)
    const preview = await adminCall('GET', `/orders/${placed.json().data.id}/shipments/preview`)
    const parcel = await adminCall('POST', `/orders/${placed.json().data.id}/shipments`, {})
    assert.equal(parcel.statusCode, 201, parcel.body)
    // M / Red 2 x 1,250 g (its own), M / Blue 500 g (the product's default weight).
    assert.equal(parcel.json().data.weightGrams, 2 * 1250 + 500, preview.body)
    const list = (await adminCall('GET', '/fulfilment/pick-list')).json().data.lines
    assert.deepEqual(
      list.filter((l: { sku: string }) => l.sku.startsWith('SHIP-KURTA')).map((l: { sku: string; name: string; quantity: number }) => [l.sku, l.name, l.quantity]),
      [
        ['SHIP-KURTA-M-BLUE', 'Kurta ship-kurta (M / Blue)', 1],
        ['SHIP-KURTA-M-RED', 'Kurta ship-kurta (M / Red)', 2],
      ],
    )
  })

  test('a variant through to its return: shipped, delivered, picked up, checked back into its own stock, refunded with a credit note at its own HSN code and rate', async () => {
    const kurta = await givenKurta('return-kurta')
    const lRed = kurta.id('L / Red')
    const placed = await order([{ productId: kurta.productId, variantId: lRed, quantity: 2 }, { productId: kurta.productId, variantId: kurta.id('M / Blue'), quantity: 1 }])
    assert.equal(placed.statusCode, 201, placed.body)
    const placedOrder = placed.json().data
    const line = placedOrder.items.find((i: { variantId: string }) => i.variantId === lRed)
    assert.equal(await variantStock(lRed), 3)
    // Shipped and delivered by the sandbox carrier.
    const parcel = await adminCall('POST', `/orders/${placedOrder.id}/shipments`, {})
    assert.equal(parcel.statusCode, 201, parcel.body)
    assert.ok(parcel.json().data.items.some((i: { orderItemId: string; quantity: number }) => i.orderItemId === line.id && i.quantity === 2), parcel.body)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${parcel.json().data.awb}/DELIVERED` })).statusCode, 200)
    // One unit of L / Red comes back.
    const asked = await t.app.inject({
      method: 'POST', url: '/api/v1/returns', headers: customerHeaders(customer),
      payload: { orderId: placedOrder.id, reason: 'Too small', detail: 'Does not fit', requestedResolution: 'WALLET_CREDIT', items: [{ orderItemId: line.id, quantity: 1, reason: 'Size' }] },
    })
    assert.equal(asked.statusCode, 201, asked.body)
    const returnId = asked.json().data.id
    for (const status of ['UNDER_REVIEW', 'APPROVED']) assert.equal((await adminCall('POST', `/returns/${returnId}/status`, { status })).statusCode, 200)
    const pickup = await adminCall('POST', `/returns/${returnId}/pickup`, { weightGrams: 500 })
    assert.equal(pickup.statusCode, 200, pickup.body)
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${pickup.json().data.pickup.awb}/DELIVERED` })).statusCode, 200)
    assert.equal((await adminCall('POST', `/returns/${returnId}/quality-check`, { result: 'PASSED', note: 'Unworn' })).statusCode, 200)
    // Back into L / Red and the product's summary, not into a sibling.
    assert.equal(await variantStock(lRed), 4)
    assert.equal(await variantStock(kurta.id('M / Blue')), 3)
    assert.equal((await productRow(kurta.productId)).stock, 12 - 3 + 1)
    assert.equal((await adminCall('POST', `/returns/${returnId}/status`, { status: 'REFUND_PENDING' })).statusCode, 200)
    const documents = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${placedOrder.id}/invoice`, headers: customerHeaders(customer) })
    assert.equal(documents.statusCode, 200, documents.body)
    const [note, ...more] = documents.json().data.creditNotes as { reason: string; lines: { description: string; hsnCode: string; gstRateBps: number; quantity: number; amount: string; cgst: string; sgst: string }[] }[]
    assert.deepEqual(more, [])
    assert.equal(note!.reason, `Return ${returnId}`)
    // Half of the invoice line of 2 x 1,099.00 at 18 % intra-state (tax 335.29: CGST 167.65, SGST 167.64).
    assert.deepEqual(
      note!.lines.map((l) => [l.description, l.hsnCode, l.gstRateBps, l.quantity, l.amount, l.cgst, l.sgst]),
      [['Kurta return-kurta (L / Red)', '6109', 1800, 1, '1099.00', '83.83', '83.82']],
    )
  })

  test('concurrent orders of two variants of one product sell exactly their stock, and the summary stays their sum', async () => {
    const kurta = await givenKurta('rush-kurta')
    const buyers = await Promise.all(Array.from({ length: 8 }, () => givenCustomer(t.app, partner)))
    const results = await Promise.all(
      buyers.flatMap((buyer) =>
        [kurta.id('M / Red'), kurta.id('M / Blue')].map((variantId) =>
          placeOrder(t, buyer, { items: [{ productId: kurta.productId, variantId, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' }),
        ),
      ),
    )
    const codes = results.map((r) => r.statusCode)
    assert.deepEqual(codes.filter((c) => c !== 201 && c !== 409), [], results.map((r) => r.body).join('\n'))
    assert.equal(codes.filter((c) => c === 201).length, 3 + 4)
    assert.equal(await variantStock(kurta.id('M / Red')), 0)
    assert.equal(await variantStock(kurta.id('M / Blue')), 0)
    assert.equal((await productRow(kurta.productId)).stock, 5)
  })
})

describe('a catalog import row without variants leaves a product with variants alone', () => {
  test("a row of a product with variants, or one taking a variant's SKU, is a problem of its row; nothing is written", async () => {
    const kurta = await givenKurta('import-kurta')
    const row = (slug: string, sku: string) => ({ slug, name: slug, sku, categorySlug: 'ethnic', sellingPrice: '10.00', mrp: '10.00', stock: 99 })
    const res = await adminCall('POST', `/catalogs/${catalogId}/import`, { products: [row('import-kurta', 'IMPORT-KURTA-M-RED'), row('import-taker', 'IMPORT-KURTA-L-RED')] })
    assert.equal(res.statusCode, 400, res.body)
    assert.deepEqual(res.json().message, [
      'products[0]: product "import-kurta" has variants: its sku, prices and stock are theirs; give its options and variants (or write them with PUT /admin/products/{productId}/variants)',
      'products[1]: sku "IMPORT-KURTA-L-RED" belongs to a variant of another product of the catalog ("import-kurta")',
    ])
    assert.equal((await productRow(kurta.productId)).stock, 12)
    assert.equal((await adminCall('GET', `/catalogs/${catalogId}/products?search=import-taker`)).json().data.length, 0)
  })
})
