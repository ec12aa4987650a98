// The sandbox checkout page in a real headless browser: Debian's Chromium driven by playwright-core,
// against the real app listening on a real port. The buttons' fetch calls, the status text and the
// redirect to the order's paymentReturnUrl all run as a customer's browser would run them.
// Without Chromium the suite is skipped, with the command that installs it; with REQUIRE_CHROMIUM=1
// (CI) a missing Chromium fails it instead, so a CI run cannot pass without these tests.
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { after, before, describe, test } from 'node:test'
import { type Browser, chromium, type Page } from 'playwright-core'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, freePort, givenCustomer } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, type Shop } from '../helpers/shop.ts'

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
// Deadlines for a failure, not waits: every step waits for its element or answer. Generous, so a
// loaded machine (load average 6 on 2 cores) is slow, not failed.
const WAIT = { timeout: 30_000 }
const INSTALL = 'sudo apt-get install -y chromium'
const chromiumMissing = !existsSync(CHROMIUM)
const skip = chromiumMissing && process.env.REQUIRE_CHROMIUM !== '1' ? `needs Chromium at ${CHROMIUM}: ${INSTALL}` : false

let t: TestApp
let shop: Shop
let browser: Browser
let returnServer: Server
let returnBase: string
/** Every request the partner's return page received, as path + query. */
const returned: string[] = []

before(async () => {
  if (skip) return
  if (chromiumMissing) throw new Error(`REQUIRE_CHROMIUM=1 and ${CHROMIUM} is missing: ${INSTALL}`)
  const port = await freePort()
  t = await createTestApp({ env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } })
  await t.app.listen({ port, host: '127.0.0.1' })
  shop = await givenShop(t)
  // The partner's own page that the checkout sends the customer back to: another origin.
  returnServer = createServer((req, res) => {
    returned.push(req.url ?? '')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><title>Back at the shop</title><h1 id="back">Back at the shop</h1>')
  })
  await new Promise<void>((resolve) => returnServer.listen(0, '127.0.0.1', resolve))
  returnBase = `http://127.0.0.1:${(returnServer.address() as { port: number }).port}`
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 })
})

after(async () => {
  await browser?.close()
  await new Promise<void>((resolve) => (returnServer ? returnServer.close(() => resolve()) : resolve()))
  await t?.close()
})

interface PlacedOrder {
  id: string
  orderNumber: string
  paymentClientAction: { type: string; payload: { url: string; sessionId: string } }
}

async function prepaidOrder(customer: CustomerFixture, extra: object = {}): Promise<PlacedOrder> {
  const res = await placeOrder(t, customer, {
    items: [{ productId: shop.ids.earbuds!, quantity: 1 }],
    shippingAddress: ADDRESS,
    paymentMode: 'PREPAID',
    ...extra,
  })
  assert.equal(res.statusCode, 201, res.body)
  const order = res.json().data as PlacedOrder
  assert.equal(order.paymentClientAction.type, 'REDIRECT')
  assert.equal(
    order.paymentClientAction.payload.url,
    `${t.deps.config.publicBaseUrl}/api/v1/sandbox/checkout/${order.paymentClientAction.payload.sessionId}`,
  )
  return order
}

async function fetchOrder(customer: CustomerFixture, id: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: customerHeaders(customer) })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data
}

/** A fresh browser context on the order's checkout page, showing its order number. */
async function openCheckout(order: PlacedOrder): Promise<Page> {
  const context = await browser.newContext()
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT.timeout)
  const res = await page.goto(order.paymentClientAction.payload.url, { waitUntil: 'load', ...WAIT })
  assert.equal(res?.status(), 200)
  await page.getByText(order.orderNumber, { exact: true }).waitFor({ state: 'visible', ...WAIT })
  assert.match(await page.title(), new RegExp(order.orderNumber))
  assert.match((await page.locator('#amount').textContent()) ?? '', /1,?000/)
  return page
}

/** Clicks a button and waits for the page to report the answer in #status. */
async function press(page: Page, button: 'pay' | 'fail' | 'close', expected: string) {
  await page.locator(`#${button}`).click(WAIT)
  await page.locator('#status').filter({ hasText: expected }).waitFor({ state: 'visible', ...WAIT })
  assert.equal(await page.locator('#status').textContent(), expected)
}

describe('sandbox checkout page in Chromium', { timeout: 240_000, skip }, () => {
  test('Pay: the page says so, and the order is confirmed and paid', { timeout: 75_000 }, async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer)
    const page = await openCheckout(order)
    try {
      await press(page, 'pay', 'Payment successful')
      assert.equal(await page.locator('#payment-status').textContent(), 'SUCCEEDED')
      const fetched = await fetchOrder(customer, order.id)
      assert.equal(fetched.status, 'CONFIRMED')
      assert.equal(fetched.paymentStatus, 'PAID')
      assert.equal(fetched.payment.status, 'SUCCEEDED')
    } finally {
      await page.context().close()
    }
  })

  test('Close leaves the order waiting for payment; Fail marks the payment failed', { timeout: 75_000 }, async () => {
    const customer = await givenCustomer(t.app, shop.partner)

    const closed = await prepaidOrder(customer)
    const closePage = await openCheckout(closed)
    try {
      await press(closePage, 'close', 'Checkout closed')
      assert.equal(await closePage.locator('#payment-status').textContent(), 'USER_DROPPED')
    } finally {
      await closePage.context().close()
    }
    const afterClose = await fetchOrder(customer, closed.id)
    assert.equal(afterClose.status, 'PENDING_PAYMENT')
    assert.equal(afterClose.paymentStatus, 'PENDING')
    assert.equal(afterClose.payment.status, 'USER_DROPPED')

    const failed = await prepaidOrder(customer)
    const failPage = await openCheckout(failed)
    try {
      await press(failPage, 'fail', 'Payment failed')
      assert.equal(await failPage.locator('#payment-status').textContent(), 'FAILED')
    } finally {
      await failPage.context().close()
    }
    const afterFail = await fetchOrder(customer, failed.id)
    assert.equal(afterFail.payment.status, 'FAILED')
    assert.notEqual(afterFail.paymentStatus, 'PAID')
  })

  test('after paying, the page sends the customer to the order\'s paymentReturnUrl', { timeout: 75_000 }, async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const order = await prepaidOrder(customer, { paymentReturnUrl: `${returnBase}/shop/back?ref=abc` })
    const page = await openCheckout(order)
    try {
      await press(page, 'pay', 'Payment successful')
      await page.waitForURL((url) => url.searchParams.get('paymentStatus') === 'SUCCEEDED', WAIT)
      const landed = new URL(page.url())
      assert.equal(landed.origin, returnBase)
      assert.equal(landed.pathname, '/shop/back')
      assert.equal(landed.searchParams.get('ref'), 'abc')
      assert.equal(landed.searchParams.get('orderId'), order.id)
      await page.locator('#back').waitFor({ state: 'visible', ...WAIT })
      assert.ok(returned.some((u) => u.startsWith('/shop/back?') && u.includes('paymentStatus=SUCCEEDED') && u.includes(order.id)))
      assert.equal((await fetchOrder(customer, order.id)).status, 'CONFIRMED')
    } finally {
      await page.context().close()
    }
  })
})
