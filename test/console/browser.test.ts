// The back-office console (console/, served at /admin) in a real headless Chromium driven by
// playwright-core, against the real app on a real port: one app, one browser, one page per role.
// Each test does what an operator does on a screen and checks the result through the API. Every
// screen it passes is written to test-results/console-screenshots/ (ignored by git), or to the folder
// CONSOLE_SCREENSHOTS_DIR names: `npm run console:screenshots` refreshes the committed copies in
// docs/console-screenshots/ (README: "Back-office console").
// Without Chromium the suite is skipped, with the command that installs it; with REQUIRE_CHROMIUM=1
// (CI) a missing Chromium fails it instead.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core'
import { gstinCheckCharacter } from '../../src/lib/gstin.ts'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, freePort, givenCustomer, randomPhone, type CustomerFixture } from '../helpers/factories.ts'
import { pdfPageTexts } from '../helpers/pdf.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction, type Shop } from '../helpers/shop.ts'
import { formatRupees as formatted } from '../../console/src/format.ts'
import { png, uploadedImage } from '../helpers/uploads.ts'

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
// Deadlines for a failure, not waits (each step waits for its element): generous for a loaded machine.
const WAIT = { timeout: 30_000 }
const INSTALL = 'sudo apt-get install -y chromium'
const chromiumMissing = !existsSync(CHROMIUM)
const skip = chromiumMissing && process.env.REQUIRE_CHROMIUM !== '1' ? `needs Chromium at ${CHROMIUM}: ${INSTALL}` : false
const SCREENSHOTS = resolve(process.env.CONSOLE_SCREENSHOTS_DIR || join(import.meta.dirname, '../../test-results/console-screenshots'))
const PASSWORD = 'long-enough-password'
const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

let t: TestApp
let shop: Shop
let browser: Browser
let base: string
const contexts: BrowserContext[] = []

before(async () => {
  if (skip) return
  if (chromiumMissing) throw new Error(`REQUIRE_CHROMIUM=1 and ${CHROMIUM} is missing: ${INSTALL}`)
  // What `npm start` serves: the console built from console/ (skipped when its sources are unchanged).
  execFileSync(process.execPath, [join(import.meta.dirname, '../../scripts/build-console.mjs')], { stdio: 'ignore' })
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  t = await createTestApp({ env: { PUBLIC_BASE_URL: base } })
  await t.app.listen({ port, host: '127.0.0.1' })
  shop = await givenShop(t)
  for (const role of ['ADMIN', 'SUPPORT', 'CATALOG'] as const) await createAdmin(t.deps.database.db, { email: `${role.toLowerCase()}@console.test`, password: PASSWORD, role })
  mkdirSync(SCREENSHOTS, { recursive: true })
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 })
})

after(async () => {
  for (const context of contexts) await context.close()
  await browser?.close()
  await t?.close()
})

let adminToken: string | null = null
/** The admin API as the test sees it, with a token of its own (one sign-in: they are rate limited): the answer, whatever its status. */
async function adminCall(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) {
  if (!adminToken) {
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'admin@console.test', password: PASSWORD } })
    assert.equal(login.statusCode, 200, login.body)
    adminToken = login.json().data.accessToken as string
  }
  return t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${adminToken}` }, payload })
}

/** The admin API's JSON answer, which must be a success. */
async function adminApi(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) {
  const res = await adminCall(method, url, payload)
  assert.ok(res.statusCode < 300, res.body)
  return res.json()
}

/** The notification (snackbar) that says this. */
const notified = (page: Page, text: RegExp | string) => page.locator('.MuiSnackbar-root').filter({ hasText: text }).first().waitFor()

/** Picks an option of a select (react-admin's SelectInput, or a MUI select) by its label. */
async function choose(page: Page, label: RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).last().click()
}

/** One signed-in page per role and window size, kept for the file's tests: each test starts on the dashboard. */
const sessions = new Map<string, Page>()

async function signedIn(role: 'ADMIN' | 'SUPPORT' | 'CATALOG', viewport = DESKTOP): Promise<Page> {
  const key = `${role} ${viewport.width}`
  const kept = sessions.get(key)
  if (kept) {
    await kept.goto(`${base}/admin#/`)
    return kept
  }
  const page = await signIn(role, viewport)
  sessions.set(key, page)
  return page
}

async function signIn(role: 'ADMIN' | 'SUPPORT' | 'CATALOG', viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  contexts.push(context)
  const page = await context.newPage()
  page.setDefaultTimeout(WAIT.timeout)
  await page.goto(`${base}/admin`, { waitUntil: 'load' })
  await page.locator('input[name="email"]').fill(`${role.toLowerCase()}@console.test`)
  await page.locator('input[name="password"]').fill(PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  await page.getByText(`${role.toLowerCase()}@console.test (${role})`).or(page.getByRole('button', { name: /profile/i })).first().waitFor({ state: 'attached' })
  return page
}

/** A list screen has loaded: its table, or its empty-list message. */
const listShown = (page: Page) => page.locator('main table, main textarea').or(page.getByText(/^No .+ (yet|found)/)).first().waitFor()

/**
 * Every screen the tests pass is photographed and checked: axe-core finds no serious or critical
 * violation (contrast, names, headings, landmarks), and at phone width nothing scrolls sideways.
 */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), animations: 'disabled' })
  await accessible(page, name)
}

const AXE_SOURCE = readFileSync(join(import.meta.dirname, '../../node_modules/axe-core/axe.min.js'), 'utf8')

async function accessible(page: Page, screen: string) {
  // Evaluated through the DevTools protocol: the console's CSP allows no inline script, rightly.
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE)
  // Colours are checked at rest: a button enabled a moment ago (its data just arrived) is still
  // fading from the disabled colours, and axe would measure the colours half-way.
  await page.evaluate('Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))')
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ') + (n.any[0] && n.any[0].data && n.any[0].data.contrastRatio ? ' [' + n.any[0].data.fgColor + ' on ' + n.any[0].data.bgColor + ': ' + n.any[0].data.contrastRatio + ', text: ' + JSON.stringify((document.querySelector(n.target[0]) || {}).textContent || '').slice(0, 60) + ']' : '')).join(', ')))`)) as string[]
  assert.deepEqual(violations, [], `${screen}: axe-core found serious or critical violations`)
  const width = page.viewportSize()?.width ?? 0
  if (width <= PHONE.width) {
    const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number
    if (scrollWidth > width) {
      // The innermost elements wider than the window: what to fix.
      const past = await page.evaluate(`[...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().width > ${width} && ![...e.children].some((c) => c.getBoundingClientRect().width > ${width}))
        .slice(0, 3).map((e) => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').slice(0, 3).join('.') : '') + ':' + Math.round(e.getBoundingClientRect().width) + ' ' + JSON.stringify((e.textContent || '').slice(0, 40)))`)
      assert.fail(`${screen}: ${scrollWidth} px wide at ${width} px (it scrolls sideways): ${JSON.stringify(past)}`)
    }
  }
}

/** The list on screen has come to `n` rows (after a search went to the server and back). */
async function rowsAre(page: Page, n: number) {
  const rows = page.locator('main tbody tr')
  const deadline = Date.now() + WAIT.timeout
  while ((await rows.count()) !== n) {
    if (Date.now() > deadline) throw new Error(`the list shows ${await rows.count()} rows, not ${n}`)
    await page.waitForTimeout(50)
  }
}

/** The list's cells but the first (a time), row by row, have come to these (names read after the rows: products, accounts, orders). */
async function cellsBecome(page: Page, expected: string[][]) {
  const read = () => page.locator('main tbody tr').evaluateAll((rows) => rows.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent ?? '')))
  const deadline = Date.now() + WAIT.timeout
  for (;;) {
    const shown = await read()
    if (JSON.stringify(shown) === JSON.stringify(expected)) return
    if (Date.now() > deadline) assert.deepEqual(shown, expected, 'the list shows other rows')
    await page.waitForTimeout(100)
  }
}

/**
 * Types a list's search and waits until the list's filter (in the URL) carries it and the list shows
 * `rows` rows, twice a quarter second apart. The list's filter form takes the URL's filter back
 * while the list is still settling after navigation (react-admin resets the form from the filter it
 * restores); text typed in that moment is lost, as it would be for an operator, who types again: so
 * does this, until the filter holds it (CI saw 3 coupons instead of 1, and 2 registrations instead
 * of 1, each once).
 */
async function searchList(page: Page, box: Locator, text: string, rows: number) {
  const shown = page.locator('main tbody tr')
  const settled = async () => decodeURIComponent(page.url()).includes(text) && (await shown.count()) === rows
  const deadline = Date.now() + WAIT.timeout
  for (;;) {
    if (await settled()) {
      await page.waitForTimeout(250)
      if (await settled()) return
    }
    if (Date.now() > deadline) throw new Error(`the search ${JSON.stringify(text)} shows ${await shown.count()} rows, not ${rows} (${page.url()})`)
    if ((await box.inputValue()) !== text) await box.fill(text)
    await page.waitForTimeout(100)
  }
}

/** An input has come to show this value (after the page read the record again). */
async function valueBecomes(input: Locator, value: string) {
  const deadline = Date.now() + WAIT.timeout
  while ((await input.inputValue()) !== value) {
    if (Date.now() > deadline) throw new Error(`the input shows ${JSON.stringify(await input.inputValue())}, not ${JSON.stringify(value)}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A category of the shop's catalog, by slug, as the API answers it. */
async function categoryOf(slug: string) {
  const found = (await adminApi('GET', `/catalogs/${shop.catalogId}/categories`)).data.find((c: { slug: string }) => c.slug === slug)
  assert.ok(found, `no category ${slug}`)
  return found
}

/** This month in India as a GSTR-1 return period, MMYYYY. */
function thisPeriod() {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date())
  return `${today.slice(5, 7)}${today.slice(0, 4)}`
}

async function codOrder(customer: CustomerFixture) {
  const res = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { id: string; orderNumber: string; totalAmount: string }
}

// A guard against a hung browser, not a speed check: the whole suite took 149-187 s on the slow box
// of 2026-11-28 (in CI beside other files), past the 180 s this was; the runner's own guard is 480 s a file.
describe('back-office console in Chromium', { timeout: 400_000, skip }, () => {
  test('the sign-in page takes typing after a cold load; then the dashboard shows the same figures as the API', async (ctx) => {
    const customer = await givenCustomer(t.app, shop.partner)
    await codOrder(customer)
    await codOrder(customer)
    await t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: customerHeaders(customer), payload: { topic: 'Where is my order', detail: 'Not here yet' } })

    const context = await browser.newContext({ viewport: DESKTOP })
    contexts.push(context)
    const login = await context.newPage()
    // A cold load (a new context: empty cache). Its time is reported, not asserted: the 1.5 s target
    // is measured on a quiet box by `npm run bench:console` (docs/benchmarks.md), not by a timed test.
    await login.goto('about:blank')
    await login.goto(`${base}/admin`, { waitUntil: 'commit' })
    await login.locator('input[name="email"]').fill('x')
    const interactiveMs = Math.round(await login.evaluate(() => performance.now()))
    ctx.diagnostic(`sign-in page interactive after ${interactiveMs} ms (the page's clock, from the start of its navigation)`)
    await login.locator('input[name="email"]').fill('')
    await shot(login, '01-sign-in')
    await login.locator('input[name="email"]').fill('admin@console.test')
    await login.locator('input[name="password"]').fill('wrong password!')
    await login.getByRole('button', { name: /sign in/i }).click()
    await login.getByText('Invalid email or password').or(login.getByText(/invalid/i)).first().waitFor()

    const page = await signedIn('ADMIN')
    await page.getByTestId('orders-today').waitFor()
    const stats = (await adminApi('GET', '/orders/stats?days=14')).data
    const today = stats.days.at(-1)
    assert.equal(await page.getByTestId('orders-today').textContent(), String(today.orders))
    assert.equal(await page.getByTestId('gmv-today').textContent(), today.gmv)
    const open = (await adminApi('GET', '/support/tickets?status=OPEN&limit=1')).meta.total
    assert.equal(await page.getByTestId('open-tickets').textContent(), String(open))
    const requested = (await adminApi('GET', '/returns?status=REQUESTED&limit=1')).meta.total
    const review = (await adminApi('GET', '/returns?status=UNDER_REVIEW&limit=1')).meta.total
    assert.equal(await page.getByTestId('returns-waiting').textContent(), String(requested + review))
    for (const { status, count } of stats.byStatus) assert.equal(await page.locator(`[data-status="${status}"] td`).nth(1).textContent(), String(count))
    // A search on the shop's catalog that finds nothing shows up on the dashboard, as the API says.
    const search = await t.app.inject({ method: 'GET', url: '/api/v1/search?q=quinoa%20puffs', headers: { 'x-api-key': shop.partner.apiKey } })
    assert.equal(search.statusCode, 200, search.body)
    await page.reload()
    await page.getByTestId('zero-results-catalog').click()
    await page.getByRole('option', { name: (await adminApi('GET', '/catalogs')).data.find((c: { id: string }) => c.id === shop.catalogId).name }).click()
    await page.locator('[data-query="quinoa puffs"]').waitFor()
    const zero = (await adminApi('GET', `/catalogs/${shop.catalogId}/search-analytics?days=30&limit=10`)).data.zeroResultQueries
    assert.deepEqual(await page.getByTestId('zero-results').locator('li').allTextContents(), zero.map((q: { query: string; searches: number }) => `${q.query} (${q.searches})`))
    await shot(page, '02-dashboard')
  })

  test('SUPPORT finds an order by its number, opens it from the keyboard, moves it to PACKED, and the API says PACKED; the order\'s history says who did', async () => {
    const order = await codOrder(await givenCustomer(t.app, shop.partner))
    const page = await signedIn('SUPPORT')
    await page.getByRole('menuitem', { name: 'Orders' }).click()
    await searchList(page, page.locator('input[name="q"]'), order.orderNumber, 1)
    // Opened from the keyboard: the row is in the tab order, and Enter opens it.
    const row = page.locator('main tbody tr', { hasText: order.orderNumber })
    await row.waitFor()
    assert.equal(await row.getAttribute('tabindex'), '0')
    await row.focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('order-status').filter({ hasText: 'CONFIRMED' }).waitFor()
    await page.getByTestId('move-to').click()
    await page.getByRole('option', { name: 'PACKED', exact: true }).click()
    await page.getByRole('button', { name: 'Move', exact: true }).click()
    await page.getByText('Order status changed').waitFor()
    await page.getByTestId('order-status').filter({ hasText: 'PACKED' }).waitFor()
    assert.equal((await adminApi('GET', `/orders/${order.id}`)).data.status, 'PACKED')
    // Who moved it, on the order's page: the audit log's entry, in words.
    const history = page.getByTestId('history')
    await history.getByText(/support@console\.test · Update order status/).waitFor()
    await history.getByText('status: CONFIRMED → PACKED').waitFor()
    await shot(page, '03-order-detail')

    // Only the moves the machine allows from PACKED are offered (the API's nextStatuses; cancelling has its own button).
    await page.getByTestId('move-to').click()
    const offered = await page.getByRole('option').allTextContents()
    assert.deepEqual(offered, (await adminApi('GET', `/orders/${order.id}`)).data.nextStatuses.filter((s: string) => s !== 'CANCELLED'))
    await page.keyboard.press('Escape')
    // A move the API refuses: its 409 message is on the screen (an unpaid COD order is not cancelled while its parcel is booked).
    await adminApi('POST', `/orders/${order.id}/shipments`, { weightGrams: 500 })
    await page.getByRole('button', { name: 'Cancel order', exact: true }).click()
    await page.locator('.MuiSnackbar-root').filter({ hasText: /cannot be cancelled while parcel .+ is booked/ }).waitFor()
    assert.equal((await adminApi('GET', `/orders/${order.id}`)).data.status, 'PACKED')

    await page.getByRole('menuitem', { name: 'Orders' }).click()
    await page.locator('input[name="q"]').fill('')
    await page.getByRole('cell', { name: order.orderNumber, exact: true }).waitFor()
    await shot(page, '04-orders')
  })

  test("SUPPORT ships an order from its page: compares rates, books the atta with the cheapest courier, the earbuds as the shop's own delivery with its tracking number, moves that one to DELIVERED; SHIPPED is not offered while units are in no parcel, and the API refuses it", async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.atta!, quantity: 2 }, { productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    assert.equal((await sandboxAction(t, order.paymentClientAction, 'pay')).statusCode, 200)
    await adminApi('POST', `/orders/${order.id}/status`, { status: 'PACKED' })
    const refused = await adminCall('POST', `/orders/${order.id}/status`, { status: 'SHIPPED' })
    assert.equal(refused.statusCode, 409)
    assert.match(refused.json().message, /has 3 unit\(s\) in no parcel/)

    const page = await signedIn('SUPPORT')
    await page.goto(`${base}/admin#/orders/${order.id}/show`)
    await page.getByRole('heading', { name: /Book a parcel/ }).waitFor()
    await page.getByTestId('order-charges').getByText(formatted(order.totalAmount)).first().waitFor()
    await page.getByTestId('order-phone').getByText(ADDRESS.phone).waitFor()
    await page.getByTestId('move-to').click()
    assert.deepEqual(await page.getByRole('option').allTextContents(), [], 'no SHIPPED while units are in no parcel')
    await page.keyboard.press('Escape')

    // The atta alone (a split): its rates, then the cheapest courier.
    const book = page.getByTestId('book-parcel')
    await book.getByLabel(/^Earbuds \(E-1\), of 1/).fill('0')
    await book.getByRole('button', { name: 'Compare rates' }).click()
    await page.getByTestId('rates').getByText(/Sandbox Surface \(sandbox\) · ₹[\d,]+\.\d\d · 6 days.*cheapest/).waitFor()
    await shot(page, '46-order-rates')
    await page.getByTestId('rates').getByRole('button', { name: 'Book Sandbox Surface' }).click()
    await notified(page, 'Shipment created')
    let seen = (await adminApi('GET', `/orders/${order.id}`)).data
    assert.deepEqual(seen.shipments.map((p: { courierName: string; items: unknown[] }) => [p.courierName, p.items]), [['Sandbox Surface', [{ orderItemId: seen.items[0].id, quantity: 2 }]]])
    await page.getByTestId(`parcel-${seen.shipments[0].awb}`).getByRole('link', { name: 'Tracking' }).waitFor()

    // The earbuds with the shop's own van.
    await page.getByTestId('parcel-carrier').click()
    await page.getByRole('option', { name: 'Own delivery (no carrier)' }).click()
    await book.getByLabel('Tracking number (optional)').fill('VAN-7')
    await book.getByRole('button', { name: 'Book own delivery' }).click()
    await notified(page, 'Shipment created')
    const van = page.getByTestId('parcel-VAN-7')
    await van.waitFor()
    const label = page.waitForEvent('download')
    await van.getByRole('button', { name: 'Label (PDF)' }).click()
    assert.equal((await label).suggestedFilename(), 'label-VAN-7.pdf')
    await van.getByTestId('parcel-move').click()
    await page.getByRole('option', { name: 'DELIVERED', exact: true }).click()
    await van.getByLabel('Note').fill('Handed over at the door')
    await van.getByRole('button', { name: 'Move parcel' }).click()
    await notified(page, 'Shipment moved')
    await van.getByTestId('parcel-status').filter({ hasText: 'DELIVERED' }).waitFor()
    await shot(page, '47-order-fulfilment')
    seen = (await adminApi('GET', `/orders/${order.id}`)).data
    const own = seen.shipments.find((p: { carrier: string }) => p.carrier === 'manual')
    assert.deepEqual([own.awb, own.status, own.events.at(-1).note], ['VAN-7', 'DELIVERED', 'Handed over at the door'])
    assert.deepEqual(seen.unparcelled, [])
    await page.getByRole('heading', { name: /Book a parcel/ }).waitFor({ state: 'detached' })

    // The day's paperwork from the fulfilment page: the pick list and the sandbox courier's manifest.
    await page.getByRole('menuitem', { name: 'Fulfilment' }).click()
    await page.getByRole('heading', { name: 'Fulfilment', level: 1 }).waitFor()
    for (const [button, file] of [['Pick list (PDF)', /^pick-list-\d{4}-\d{2}-\d{2}\.pdf$/], ['Manifest (PDF)', /^manifest-sandbox-\d{4}-\d{2}-\d{2}\.pdf$/]] as const) {
      const downloaded = page.waitForEvent('download')
      await page.getByRole('button', { name: button }).click()
      assert.match((await downloaded).suggestedFilename(), file)
    }
    await shot(page, '48-fulfilment-day')
  })

  test('SUPPORT asks for another delivery attempt of a failed parcel on a given day, at a corrected address line and mobile, from the order page; the API shows the action as asked', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    await adminApi('POST', `/orders/${order.id}/status`, { status: 'PACKED' })
    const parcel = (await adminApi('POST', `/orders/${order.id}/shipments`, { weightGrams: 300 })).data
    for (const status of ['IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERY_FAILED']) {
      assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${parcel.awb}/${status}` })).statusCode, 200)
    }
    // Tomorrow in India: a re-attempt may be put off up to 7 days.
    const day = new Date(Date.now() + (330 + 24 * 60) * 60_000).toISOString().slice(0, 10)

    const page = await signedIn('SUPPORT')
    await page.goto(`${base}/admin#/orders/${order.id}/show`)
    const box = page.getByTestId(`parcel-${parcel.awb}`)
    await box.getByTestId('parcel-status').filter({ hasText: 'DELIVERY_FAILED' }).waitFor()
    await box.getByLabel('Deliver on').fill(day)
    await box.getByLabel('Corrected address line').fill('Flat 4B, 12 MG Road')
    await box.getByLabel('Corrected mobile').fill('98765 00000')
    await box.getByLabel('Note').fill('Call before coming')
    await box.getByRole('button', { name: 'Deliver again' }).click()
    await notified(page, 'Non-delivery action sent')
    await box.getByText(new RegExp(`REATTEMPT on ${day} to Flat 4B, 12 MG Road call 9876500000 \\(.+, ADMIN:`)).waitFor()
    await shot(page, '52-ndr-reattempt')
    const seen = (await adminApi('GET', `/shipments/${parcel.id}`)).data
    assert.deepEqual(
      seen.ndrActions.map((a: { action: string; deferredDate: string; addressLine: string; phone: string; note: string }) => [a.action, a.deferredDate, a.addressLine, a.phone, a.note]),
      [['REATTEMPT', day, 'Flat 4B, 12 MG Road', '9876500000', 'Call before coming']],
    )
  })

  test("SUPPORT finds an order from the app bar's search by the last digits of the customer's phone, and by its parcel's AWB (an exact hit, first)", async () => {
    const phone = randomPhone()
    const order = await codOrder(await givenCustomer(t.app, shop.partner, { phone }))
    const parcel = (await adminApi('POST', `/orders/${order.id}/shipments`, { weightGrams: 500 })).data
    const page = await signedIn('SUPPORT')
    const box = page.getByLabel('Search orders, customers and products')
    await box.fill(phone.slice(-5))
    await box.press('Enter')
    await page.getByTestId('search-hits').getByRole('link', { name: order.orderNumber }).waitFor()
    await box.fill(parcel.awb)
    await box.press('Enter')
    const first = page.getByTestId('search-hits').locator('li').first()
    await first.getByRole('link', { name: order.orderNumber }).waitFor()
    await first.getByText('exact').waitFor()
    await shot(page, '51-search')
    await first.getByRole('link', { name: order.orderNumber }).click()
    await page.getByTestId('order-status').waitFor()
    assert.match(page.url(), new RegExp(`#/orders/${order.id}/show$`))
  })

  test('SUPPORT selects 10 orders in the list, books them all and prints one PDF with their 10 labels, a page each', async () => {
    // Ten orders to one phone of their own, found in the list by it (the search matches the shipping phone).
    const customer = await givenCustomer(t.app, shop.partner)
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      const res = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: { ...ADDRESS, phone: customer.phone }, paymentMode: 'COD' })
      assert.equal(res.statusCode, 201, res.body)
      ids.push(res.json().data.id)
    }
    const page = await signedIn('SUPPORT')
    await page.goto(`${base}/admin#/orders?filter=${encodeURIComponent(JSON.stringify({ q: customer.phone }))}`)
    await rowsAre(page, 10)
    await page.getByRole('checkbox', { name: 'Select all' }).check()
    const downloaded = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Book parcels and print labels' }).click()
    const file = await downloaded
    assert.equal(file.suggestedFilename(), 'labels-10.pdf')
    await notified(page, '10 parcel(s) booked, their labels downloaded')
    const pages = await pdfPageTexts(readFileSync((await file.path())!))
    assert.equal(pages.length, 10, 'one page per label')
    const awbs = await Promise.all(ids.map(async (id) => (await adminApi('GET', `/orders/${id}`)).data.shipments.map((p: { awb: string }) => p.awb)))
    assert.ok(awbs.every((a) => a.length === 1), 'each order got one parcel')
    assert.deepEqual(new Set(pages.map((text) => awbs.flat().find((awb: string) => text.includes(awb)))).size, 10, 'each page is one of them')
  })

  test('ADMIN invites a person, who signs in with the temporary password shown once and sets their own; deactivated, their open session ends at once', async () => {
    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'People' }).click()
    await page.getByRole('heading', { name: 'People', level: 1 }).waitFor()
    await page.getByLabel('Email').fill('meera@console.test')
    await choose(page, /^Role/, 'SUPPORT')
    await page.getByRole('button', { name: 'Invite', exact: true }).click()
    const shown = page.getByTestId('temporary-password')
    await shown.waitFor()
    const password = (await shown.locator('strong').textContent())!
    assert.match(password, /^[A-Za-z0-9_-]{22}$/)
    await shot(page, '49-people')

    // Meera signs in elsewhere, and sets her own password.
    const context = await browser.newContext({ viewport: DESKTOP })
    contexts.push(context)
    const meera = await context.newPage()
    meera.setDefaultTimeout(WAIT.timeout)
    await meera.goto(`${base}/admin`, { waitUntil: 'load' })
    await meera.locator('input[name="email"]').fill('meera@console.test')
    await meera.locator('input[name="password"]').fill(password)
    await meera.getByRole('button', { name: /sign in/i }).click()
    await meera.getByRole('menuitem', { name: 'Orders' }).waitFor()
    await meera.goto(`${base}/admin#/password`)
    await meera.getByLabel('Current password').fill(password)
    await meera.getByLabel('New password (12 characters or more)').fill('meera-chose-this-one')
    await meera.getByRole('button', { name: 'Change password' }).click()
    await notified(meera, 'Password changed')
    const people = (await adminApi('GET', '/admins')).data as { id: string; email: string; mustChangePassword: boolean }[]
    const person = people.find((p) => p.email === 'meera@console.test')!
    assert.equal(person.mustChangePassword, false)

    // Deactivated by the ADMIN: her next request is refused and the console signs her out.
    await page.reload()
    await page.getByTestId('person-meera@console.test').getByRole('button', { name: 'Deactivate' }).click()
    await notified(page, 'Admin updated')
    await meera.getByRole('menuitem', { name: 'Orders' }).click()
    await meera.locator('input[name="email"]').waitFor()
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'meera@console.test', password: 'meera-chose-this-one' } })).statusCode, 401)
  })

  test('SUPPORT reviews a return with its image, approves it, books its pickup, records the quality check once it is back, starts the refund, and the API shows the refund', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: shop.ids.earbuds!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data
    await sandboxAction(t, order.paymentClientAction, 'pay')
    // Every unit in a parcel (the merchant's own delivery) before SHIPPED: an order is not shipped with nothing in one.
    await adminApi('POST', `/orders/${order.id}/shipments`, { carrier: 'manual' })
    for (const status of ['SHIPPED', 'OUT_FOR_DELIVERY', 'DELIVERED']) await adminApi('POST', `/orders/${order.id}/status`, { status })
    const image = await uploadedImage(t, customer, 'returns')
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/returns',
      headers: customerHeaders(customer),
      payload: { orderId: order.id, reason: 'Damaged', detail: 'The left bud does not charge', requestedResolution: 'ORIGINAL_PAYMENT_REFUND', items: [{ orderItemId: order.items[0].id, quantity: 1, reason: 'Damaged' }], imageUrls: [image] },
    })
    assert.equal(created.statusCode, 201, created.body)
    const returnId = created.json().data.id

    const page = await signedIn('SUPPORT')
    await page.goto(`${base}/admin#/returns/${returnId}/show`)
    await page.getByTestId('return-status').filter({ hasText: 'REQUESTED' }).waitFor()
    await page.getByTestId('images').locator('img').waitFor()
    // Loaded, or its load awaited (on a busy machine the element shows before its bytes arrive): a broken image is an error, not a wait.
    const loaded = await page.getByTestId('images').locator('img').evaluate((element) => {
      const img = element as unknown as { complete: boolean; naturalWidth: number; addEventListener(type: string, listener: () => void): void }
      if (img.complete) return img.naturalWidth > 0
      return new Promise<boolean>((resolve) => {
        img.addEventListener('load', () => resolve(img.naturalWidth > 0))
        img.addEventListener('error', () => resolve(false))
      })
    })
    assert.ok(loaded, "the customer's image loads")
    await shot(page, '05-return-review')
    for (const [button, status] of [['Start review', 'UNDER_REVIEW'], ['Approve', 'APPROVED']] as const) {
      await page.getByRole('button', { name: button, exact: true }).click()
      await page.getByTestId('return-status').filter({ hasText: status }).waitFor()
    }
    // The pickup booked from the page, its AWB shown; the carrier brings the parcel back (the
    // sandbox's scans), then the quality check is recorded on the page with its result.
    await page.getByRole('button', { name: 'Book pickup', exact: true }).click()
    await notified(page, 'Pickup booked')
    const pickup = (await adminApi('GET', `/returns/${returnId}`)).data.pickup
    assert.ok(pickup?.awb, 'the pickup has an AWB')
    await page.getByTestId('return-pickup').getByText(pickup.awb).waitFor()
    for (const scan of ['IN_TRANSIT', 'DELIVERED']) assert.equal((await t.app.inject({ method: 'POST', url: `/api/v1/sandbox/shipments/${pickup.awb}/${scan}` })).statusCode, 200)
    await page.reload()
    await choose(page, /^Outcome/, /^Passed/)
    await page.getByLabel('Quality check note').fill('Sealed, charges fine')
    await page.getByRole('button', { name: 'Record quality check', exact: true }).click()
    await page.getByTestId('return-quality-check').getByText(/Passed · units back in stock/).waitFor()
    assert.equal((await adminApi('GET', `/returns/${returnId}`)).data.qualityCheck.result, 'PASSED')
    await page.getByRole('button', { name: 'Start refund', exact: true }).click()
    await page.getByTestId('return-status').filter({ hasText: 'REFUND' }).waitFor()
    const after = (await adminApi('GET', `/returns/${returnId}`)).data
    assert.match(after.status, /^REFUND/)
    assert.equal(after.refunds.length, 1)
    assert.equal(after.refunds[0].amount, '1000.00')
    await page.getByTestId('return-refunds').getByText('₹1,000.00').waitFor()
    await shot(page, '06-return-refunded')
    // The order's page links to its return.
    await page.goto(`${base}/admin#/orders/${order.id}/show`)
    await page.getByTestId('order-returns').getByRole('link').click()
    await page.waitForURL(new RegExp(`#/returns/${returnId}/show$`))
    await page.getByRole('menuitem', { name: 'Returns' }).click()
    await listShown(page)
    await shot(page, '07-returns')
  })

  test('SUPPORT replies to a ticket with an image and sets it IN_PROGRESS; the customer sees the reply and its image', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const image = await uploadedImage(t, customer, 'support')
    const ticket = await t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: customerHeaders(customer), payload: { topic: 'Broken seal', detail: 'The seal was open', imageUrls: [image] } })
    assert.equal(ticket.statusCode, 201, ticket.body)
    const ticketId = ticket.json().data.id

    const page = await signedIn('SUPPORT')
    await page.getByRole('menuitem', { name: 'Tickets' }).click()
    await page.getByRole('cell', { name: 'Broken seal' }).first().click()
    await page.getByTestId('ticket-status').filter({ hasText: 'OPEN' }).waitFor()
    await page.getByLabel('Reply').fill('Sorry about that: a replacement is on its way.')
    // An image attached: a signed slot for the ticket, PUT from the browser, shown before it is sent.
    await page.locator('input[type="file"]').setInputFiles({ name: 'seal photo.png', mimeType: 'image/png', buffer: png(240) })
    await page.getByTestId('reply-images').locator('img').waitFor()
    await page.getByRole('button', { name: 'Send reply' }).click()
    await page.getByText('Reply sent').waitFor()
    await page.getByTestId('messages').getByText('a replacement is on its way').waitFor()
    await page.getByLabel('Status').click()
    await page.getByRole('option', { name: 'IN_PROGRESS' }).click()
    await page.getByRole('button', { name: 'Set status' }).click()
    await page.getByTestId('ticket-status').filter({ hasText: 'IN_PROGRESS' }).waitFor()
    await shot(page, '08-ticket-conversation')
    const messages = await t.app.inject({ method: 'GET', url: `/api/v1/support/tickets/${ticketId}/messages`, headers: customerHeaders(customer) })
    const agentReply = messages.json().data.find((m: { author: string; body: string }) => m.author === 'AGENT' && m.body.includes('replacement'))
    assert.ok(agentReply, messages.body)
    assert.equal(agentReply.imageUrls.length, 1)
    assert.equal((await t.app.inject({ method: 'GET', url: new URL(agentReply.imageUrls[0]).pathname })).statusCode, 200)
    await page.getByRole('menuitem', { name: 'Tickets' }).click()
    await listShown(page)
    await shot(page, '09-tickets')
  })

  test('CATALOG edits a product\'s price and stock, and the public API answers the new values', async () => {
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Products', exact: true }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: new RegExp(`^Shop `) }).last().click()
    await searchList(page, page.locator('input[name="q"]'), 'Earbuds', 1)
    await page.getByRole('cell', { name: 'Earbuds', exact: true }).click()
    await page.locator('input[name="sellingPrice"]').fill('949.00')
    await page.locator('input[name="stock"]').fill('77')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByText(/updated/i).first().waitFor()
    const product = await t.app.inject({ method: 'GET', url: '/api/v1/products/earbuds', headers: { 'x-api-key': shop.partner.apiKey } })
    assert.equal(product.statusCode, 200, product.body)
    assert.equal(product.json().data.sellingPrice, '949.00')
    await listShown(page)
    await shot(page, '10-products')

    // An ADMIN sees who changed it, on the product's page and in the audit log.
    const admin = await signedIn('ADMIN')
    await admin.goto(`${base}/admin#/products/${shop.ids.earbuds}`)
    const history = admin.getByTestId('history')
    await history.getByText(/catalog@console\.test · Update product/).first().waitFor()
    await history.getByText('selling price: ₹1,000.00 → ₹949.00').waitFor()
    await history.getByText(/^stock: \d+ → 77$/).waitFor()
    await admin.getByRole('menuitem', { name: 'Audit log' }).click()
    await admin.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor()
    await admin.getByLabel('Kind of record').click()
    await admin.getByRole('option', { name: 'product', exact: true }).click()
    await admin.waitForURL(/objectType=product/)
    await admin.getByTestId('audit-entries').getByText('selling price: ₹1,000.00 → ₹949.00').first().waitFor()
    await shot(admin, '50-audit-log')
    await page.getByRole('menuitem', { name: 'Categories' }).click()
    await page.getByTestId('category-tree').waitFor()
    await shot(page, '11-categories')
  })

  test('CATALOG imports a CSV with a bad row: nothing is imported and the report names the row', async () => {
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Catalog import' }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: /^Shop / }).last().click()
    const csv = ['slug,name,sku,categorySlug,sellingPrice,mrp', 'good-one,Good one,G-1,audio,10.00,12.00', 'bad-one,Bad one,B-1,audio,ten,12.00'].join('\n')
    await page.getByTestId('import-file').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
    await page.getByRole('button', { name: 'Import', exact: true }).click()
    await page.getByTestId('import-problems').waitFor()
    assert.match((await page.getByTestId('import-problems').textContent()) ?? '', /line 3/)
    assert.equal(await page.getByTestId('import-progress').getAttribute('aria-valuenow'), '100')
    await shot(page, '12-import-report')
    const search = await t.app.inject({ method: 'GET', url: `/api/v1/admin/catalogs/${shop.catalogId}/products?search=Good`, headers: { authorization: `Bearer ${(await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'catalog@console.test', password: PASSWORD } })).json().data.accessToken}` } })
    assert.equal(search.json().meta.total, 0, 'all or nothing: the good row was not imported either')
  })

  test('role limits: SUPPORT has no catalog editing, CATALOG no orders; ADMIN sees every area, creates a partner, issues an API key and a coupon, credits Wallet Cash, replays a webhook event; on a phone too', async () => {
    const support = await signedIn('SUPPORT')
    await support.getByRole('menuitem', { name: 'Orders' }).waitFor()
    for (const name of ['Products', 'Categories', 'Catalog import', 'Partners', 'Coupons']) assert.equal(await support.getByRole('menuitem', { name }).count(), 0, `SUPPORT sees ${name}`)
    await support.goto(`${base}/admin#/products/${shop.ids.earbuds}`)
    await support.locator('input[name="sellingPrice"]').waitFor({ state: 'detached', timeout: 3000 })
    assert.equal(await support.locator('input[name="sellingPrice"]').count(), 0)

    const catalog = await signedIn('CATALOG')
    await catalog.getByRole('menuitem', { name: 'Products', exact: true }).waitFor()
    for (const name of ['Orders', 'Returns', 'Tickets', 'Customers']) assert.equal(await catalog.getByRole('menuitem', { name }).count(), 0, `CATALOG sees ${name}`)

    await adminApi('POST', `/partners/${shop.partner.partnerId}/coupons`, { code: 'DIWALI10', kind: 'PERCENT', value: '10' })
    const admin = await signedIn('ADMIN')
    for (const [menu, name] of [['Customers', '13-customers'], ['Coupons', '14-coupons'], ['Serviceability zones', '15-zones'], ['Partners', '16-partners'], ['Webhook events', '17-webhook-events'], ['Pricing rules', '18-pricing-rules']] as const) {
      await admin.getByRole('menuitem', { name: menu }).click()
      await listShown(admin)
      // The pricing screen is a form: shown once its partner's settings arrived (Save enabled).
      if (menu === 'Pricing rules') await admin.locator('main button:not([disabled])', { hasText: 'Save' }).waitFor()
      await shot(admin, name)
    }
    // A partner's page: a new API key is shown once, and the API lists it.
    await admin.getByRole('menuitem', { name: 'Partners' }).click()
    await searchList(admin, admin.locator('input[name="q"]'), 'Shop partner', 1)
    await admin.getByRole('cell', { name: shop.partner.partnerId }).click()
    const keysBefore = (await adminApi('GET', `/partners/${shop.partner.partnerId}/api-keys`)).data.length
    await admin.getByRole('button', { name: 'New API key' }).click()
    await admin.getByTestId('shown-once').waitFor()
    assert.equal((await adminApi('GET', `/partners/${shop.partner.partnerId}/api-keys`)).data.length, keysBefore + 1)
    await shot(admin, '21-partner-detail')
    // A new partner: its secret and first key are shown once, and the API has it.
    await admin.goto(`${base}/admin#/partners/create`)
    await admin.getByLabel('Name').fill('Console-made partner')
    await admin.getByRole('button', { name: 'Create partner' }).click()
    await admin.getByTestId('shown-once').waitFor()
    const made = (await adminApi('GET', '/partners?search=Console-made')).data
    assert.equal(made.length, 1)
    assert.match((await admin.getByTestId('shown-once').textContent()) ?? '', new RegExp(made[0].id))
    await shot(admin, '24-partner-created')

    // A coupon issued from the console is the partner's, as the API lists it.
    await admin.goto(`${base}/admin#/coupons/create`)
    const partnerName = (await adminApi('GET', `/partners/${shop.partner.partnerId}`)).data.name
    // The partner is found by typing part of its name (the API's search: a page, not every partner).
    await admin.getByRole('combobox', { name: /Partner/ }).fill(partnerName.slice(0, 8))
    await admin.getByRole('option', { name: partnerName }).click()
    await admin.locator('input[name="code"]').fill('CONSOLE5')
    await admin.getByRole('combobox', { name: /Kind/ }).click()
    await admin.getByRole('option', { name: 'Percent off' }).click()
    await admin.locator('input[name="value"]').fill('5')
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.getByText(/created/i).first().waitFor()
    const coupons = (await adminApi('GET', `/partners/${shop.partner.partnerId}/coupons`)).data
    assert.ok(coupons.some((c: { code: string; kind: string }) => c.code === 'CONSOLE5' && c.kind === 'PERCENT'), JSON.stringify(coupons))

    // A webhook event of the shop's partner, replayed from its page.
    await admin.goto(`${base}/admin#/events?filter=${encodeURIComponent(JSON.stringify({ type: 'order.created' }))}`)
    await admin.locator('main table tbody tr').first().click()
    await admin.getByRole('button', { name: 'Replay', exact: true }).click()
    await admin.getByText('Event queued for delivery').waitFor()
    await shot(admin, '23-webhook-event')
    await admin.getByRole('menuitem', { name: 'Customers' }).click()
    await admin.locator('main table tbody tr').first().click()
    await admin.getByText('Recent orders').waitFor()
    await admin.getByLabel('Amount (negative debits)').fill('50')
    await admin.getByLabel('Reason').fill('Goodwill for a late delivery')
    await admin.getByRole('button', { name: 'Adjust' }).click()
    await admin.getByText('Balance adjusted').waitFor()
    await admin.getByTestId('balances').getByText('50.00').waitFor()
    await shot(admin, '22-customer-detail')

    const phone = await signedIn('ADMIN', PHONE)
    await phone.getByTestId('orders-today').waitFor()
    await shot(phone, '19-phone-dashboard')
    await phone.goto(`${base}/admin#/orders`)
    await phone.locator('main').getByText(/CONFIRMED|PACKED/).first().waitFor()
    await shot(phone, '20-phone-orders')
  })

  test('CATALOG creates a product from the products list (catalog, category, prices, stock, packed size, HSN and GST rate), and the public API answers it', async () => {
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Products', exact: true }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: /^Shop / }).last().click()
    await page.waitForURL(/catalogId/) // the list's filter is applied (after react-admin's debounce)
    await page.getByRole('link', { name: 'Create' }).click()
    // The catalog chosen on the list is the form's; its categories are offered.
    await choose(page, /^Category/, 'Audio')
    await page.locator('input[name="name"]').fill('Bluetooth speaker mini')
    await page.locator('input[name="brand"]').fill('JBL')
    await page.locator('input[name="sku"]').fill('SPK-MINI')
    await page.locator('input[name="sellingPrice"]').fill('1299.00')
    await page.locator('input[name="mrp"]').fill('1599.00')
    await page.locator('input[name="stock"]').fill('12')
    await page.locator('input[name="dimensionsCm.length"]').fill('12')
    await page.locator('input[name="dimensionsCm.breadth"]').fill('8')
    await page.locator('input[name="dimensionsCm.height"]').fill('6')
    await page.locator('input[name="hsnCode"]').fill('8518')
    await choose(page, /^GST rate/, '18 %')
    await shot(page, '25-product-create')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /created/i)
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/products/bluetooth-speaker-mini', headers: { 'x-api-key': shop.partner.apiKey } })
    assert.equal(res.statusCode, 200, res.body)
    const product = res.json().data
    assert.deepEqual([product.name, product.sku, product.sellingPrice, product.mrp, product.stock, product.categoryId], ['Bluetooth speaker mini', 'SPK-MINI', '1299.00', '1599.00', 12, (await categoryOf('audio')).id])
    const stored = (await adminApi('GET', `/products/${product.id}`)).data
    assert.deepEqual([stored.hsnCode, stored.gstRateBps, stored.dimensionsCm], ['8518', 1800, { length: 12, breadth: 8, height: 6 }])
    // The form it lands on is the product's edit form, which still saves; emptied, the size is "not given".
    // Wait for that form to hold the saved record: filled before it loads, a field is reset by it.
    await page.waitForURL(new RegExp(`/products/${product.id}$`))
    await page.waitForFunction(`document.querySelector('input[name="dimensionsCm.height"]')?.value === '6'`)
    await page.locator('input[name="stock"]').fill('11')
    for (const side of ['length', 'breadth', 'height']) await page.locator(`input[name="dimensionsCm.${side}"]`).fill('')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /updated/i)
    const edited = (await adminApi('GET', `/products/${product.id}`)).data
    assert.deepEqual([edited.stock, edited.dimensionsCm], [11, null])
  })

  test('CATALOG creates a category under Audio and renames it from the tree; the API lists both changes', async () => {
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Categories' }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: /^Shop / }).last().click()
    await page.waitForURL(/catalogId/)
    await page.getByTestId('category-tree').getByText('Audio').waitFor()
    await page.getByRole('link', { name: 'Create' }).click()
    await page.locator('input[name="name"]').fill('Speakers')
    await choose(page, /^Parent/, 'Audio')
    await shot(page, '26-category-create')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /created/i)
    const created = await categoryOf('speakers')
    assert.equal(created.parentId, (await categoryOf('audio')).id)
    assert.equal(created.name, 'Speakers')

    await page.getByTestId('category-tree').getByText('Speakers').waitFor()
    await page.getByRole('link', { name: 'Edit Speakers' }).click()
    await page.locator('input[name="name"]').fill('Portable speakers')
    await page.locator('input[name="position"]').fill('3')
    await shot(page, '27-category-edit')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /updated/i)
    const renamed = await categoryOf('speakers')
    assert.deepEqual([renamed.name, renamed.position, renamed.parentId], ['Portable speakers', 3, created.parentId])
    await page.getByTestId('category-tree').getByText('Portable speakers').waitFor()
  })

  test('CATALOG walks a large category tree a page at a time: 30 children show 25 and "5 more"; a search finds a category at any level', async () => {
    const post = async (body: object) => (await adminApi('POST', `/catalogs/${shop.catalogId}/categories`, body)).data as { id: string }
    const many = await post({ name: 'Many', slug: 'many' })
    for (let i = 1; i <= 30; i++) await post({ name: `Child ${String(i).padStart(2, '0')}`, slug: `child-${i}`, parentId: many.id, position: i })
    const deep = (await adminApi('GET', `/catalogs/${shop.catalogId}/categories?search=child-30`)).data[0] as { id: string }
    await post({ name: 'Deep leaf', slug: 'deep-leaf', parentId: deep.id })

    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Categories' }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: /^Shop / }).last().click()
    await page.waitForURL(/catalogId/)
    const tree = page.getByTestId('category-tree')
    // Top categories open at first: Many's first page of children is there, the rest behind a button.
    await tree.getByText('Child 25').waitFor()
    assert.equal(await tree.getByText('Child 26').count(), 0)
    await tree.getByRole('button', { name: '5 more' }).click()
    await tree.getByText('Child 30').waitFor()
    assert.equal(await tree.getByText('Deep leaf').count(), 0, 'a second level opens when asked')
    await tree.getByRole('button', { name: 'Open Child 30' }).click()
    await tree.getByText('Deep leaf').waitFor()
    await shot(page, '39-categories-paged')
    await tree.getByRole('button', { name: 'Close Many' }).click()
    await tree.getByText('Child 01').waitFor({ state: 'detached' })

    await page.getByPlaceholder('Name or slug, at any level').fill('deep')
    await tree.getByText('Deep leaf').waitFor()
    await tree.getByText('Many').waitFor({ state: 'detached' })
    await page.getByPlaceholder('Name or slug, at any level').fill('')
    await tree.getByText('Many').waitFor()
  })

  test('ADMIN finds a serviceability zone by the pincode it serves, a coupon by part of its code, a partner past the first page by its name (server searches)', async () => {
    await adminApi('POST', `/partners/${shop.partner.partnerId}/coupons`, { code: 'FINDME42', kind: 'FLAT', value: '10' })
    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'Serviceability zones' }).click()
    // The zones' table, not the dashboard's that was on screen a moment ago.
    await page.waitForURL(/#\/zones/)
    const zones = (await adminApi('GET', '/delivery-zones?search=560001')).data as { name: string }[]
    const every = (await adminApi('GET', '/delivery-zones')).data as unknown[]
    assert.equal(zones.length, 1)
    assert.ok(every.length > 1)
    const rows = page.locator('main tbody tr')
    await rowsAre(page, every.length)
    await searchList(page, page.getByPlaceholder('Name or pincode'), '560001', 1)
    await rows.getByText(zones[0]!.name, { exact: true }).waitFor()
    await shot(page, '40-zones-search')
    // The list keeps its filter for the next visit: clear it, as an operator would.
    await page.getByPlaceholder('Name or pincode').fill('')
    await page.waitForURL((url) => !decodeURIComponent(url.href).includes('560001'))
    await rowsAre(page, every.length)

    await page.getByRole('menuitem', { name: 'Coupons' }).click()
    // The coupons' own list, loaded before the search is typed: typed while its first page was still
    // on its way, the search was lost on a loaded box (3 rows, not 1).
    await page.waitForURL(/#\/coupons/)
    await listShown(page)
    await searchList(page, page.getByPlaceholder('Code'), 'dme4', 1)
    await rows.getByText('FINDME42').waitFor()
    await page.getByPlaceholder('Code').fill('')
    await page.waitForURL((url) => !decodeURIComponent(url.href).includes('dme4'))

    // A partner picker offers a page of the newest partners and finds any other by its name.
    for (let i = 0; i < 21; i++) await adminApi('POST', '/partners', { name: `Crowd partner ${i}` })
    const shopPartner = (await adminApi('GET', `/partners/${shop.partner.partnerId}`)).data.name as string
    await adminApi('PUT', `/partners/${shop.partner.partnerId}/pricing`, { rewardEarnPercent: 1, rewardRedeemCapPercent: 10, paisePerPoint: 100, returnWindowDays: 11 })
    await page.getByRole('menuitem', { name: 'Pricing rules' }).click()
    const picker = page.getByRole('combobox', { name: 'Partner' })
    await picker.click()
    await page.getByRole('option', { name: 'Crowd partner 20' }).waitFor()
    assert.equal(await page.getByRole('option', { name: shopPartner }).count(), 0, 'the oldest partner is past the first page')
    await picker.fill(shopPartner.slice(0, 10))
    await page.getByRole('option', { name: shopPartner }).click()
    await page.getByLabel('Settings (JSON)').filter({ hasText: '"returnWindowDays": 11' }).waitFor()
  })

  test('ADMIN creates a serviceability zone for a prefix: a pincode nobody served becomes serviceable; a prefix added in its form is mapped', async () => {
    const customer = await givenCustomer(t.app, shop.partner)
    const serviceable = async (pincode: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/checkout/serviceability', headers: customerHeaders(customer), payload: { pincode, items: [{ productId: shop.ids.atta!, quantity: 1 }] } })
      assert.equal(res.statusCode, 200, res.body)
      return res.json().data.serviceable as boolean
    }
    assert.equal(await serviceable('190001'), false, 'no zone serves 1900 yet')

    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'Serviceability zones' }).click()
    await listShown(page)
    await page.getByRole('link', { name: 'Create' }).click()
    await page.locator('input[name="name"]').fill('Kashmir valley')
    await page.locator('input[name="pincodes.0.prefix"]').fill('1900')
    await page.locator('input[name="pincodes.0.city"]').fill('Srinagar')
    await page.locator('input[name="pincodes.0.state"]').fill('Jammu and Kashmir')
    await shot(page, '28-zone-create')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /created/i)
    assert.equal(await serviceable('190001'), true)
    assert.equal(await serviceable('192101'), false)

    await page.getByRole('cell', { name: 'Kashmir valley' }).click()
    await page.getByTestId('zone-prefixes').filter({ hasText: '1900 (Srinagar' }).waitFor()
    // The prefixes' Add is the form's last (the charge slabs have theirs).
    await page.getByRole('button', { name: 'Add' }).last().click()
    await page.locator('input[name="addPincodes.0.prefix"]').fill('1921')
    await page.locator('input[name="addPincodes.0.city"]').fill('Anantnag')
    await page.locator('input[name="addPincodes.0.state"]').fill('Jammu and Kashmir')
    await shot(page, '29-zone-edit')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /updated/i)
    const zone = (await adminApi('GET', '/delivery-zones')).data.find((z: { name: string }) => z.name === 'Kashmir valley')
    assert.deepEqual(zone.pincodes.map((p: { prefix: string }) => p.prefix).sort(), ['1900', '1921'])
    assert.equal(await serviceable('192101'), true)

    // Its delivery days, charges and free shipping are edited too; an emptied amount is "never free".
    await page.getByRole('cell', { name: 'Kashmir valley' }).click()
    await page.locator('input[name="standardMaxDays"]').fill('9')
    await page.locator('input[name="standardSlabs.0.charge"]').fill('75')
    await page.locator('input[name="freeShippingThreshold"]').fill('999')
    await page.getByRole('button', { name: 'Save' }).click()
    // Saved: the form goes back to the list (an earlier "updated" message may still be showing).
    await page.waitForURL(/#\/zones$/)
    const kashmir = async () => (await adminApi('GET', `/delivery-zones?search=${encodeURIComponent('Kashmir valley')}`)).data[0]
    const edited = await kashmir()
    assert.deepEqual([edited.standardMaxDays, edited.standardSlabs[0].charge, edited.freeShippingThreshold], [9, '75.00', '999.00'])
    await page.getByRole('cell', { name: 'Kashmir valley' }).click()
    await page.locator('input[name="freeShippingThreshold"]').fill('')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/#\/zones$/)
    assert.equal((await kashmir()).freeShippingThreshold, null)
  })

  test('ADMIN sets a partner\'s COD rules (a value the API refuses shows its 400 message), blocks COD at a pincode and unblocks it', async () => {
    const partner = (await adminApi('POST', '/partners', { name: 'COD console partner' })).data.partner
    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'Cash on delivery' }).click()
    await choose(page, /^Partner/, 'COD console partner')
    await page.locator('input[name="maxOpenCodOrders"]').fill('0')
    await page.getByRole('button', { name: 'Save rules' }).click()
    await notified(page, /maxOpenCodOrders/)
    assert.match((await page.getByTestId('cod-rules-error').textContent()) ?? '', /maxOpenCodOrders must be/)
    assert.equal((await adminApi('GET', `/partners/${partner.id}/cod-rules`)).data.maxOpenCodOrders, null, 'nothing saved')

    await page.locator('input[name="maxOpenCodOrders"]').fill('3')
    await page.locator('input[name="maxCodValue"]').fill('5000')
    await page.locator('input[name="rtoLimit"]').fill('2')
    await page.locator('input[name="rtoWindowDays"]').fill('90')
    await page.locator('input[name="maxRefusedDeliveries"]').fill('1')
    await page.locator('input[name="refusedWindowDays"]').fill('30')
    await page.getByRole('button', { name: 'Save rules' }).click()
    await notified(page, 'COD rules saved')
    const saved = { maxOpenCodOrders: 3, maxCodValue: '5000.00', rtoLimit: 2, rtoWindowDays: 90, maxRefusedDeliveries: 1, refusedWindowDays: 30, firstOrderCap: null }
    assert.deepEqual((await adminApi('GET', `/partners/${partner.id}/cod-rules`)).data, saved)
    assert.equal(await page.getByTestId('cod-rules-error').count(), 0)

    await page.getByLabel('Pincode', { exact: true }).fill('560034')
    await page.getByLabel('Reason (back office only)').fill('Repeated refusals at the door')
    await page.getByRole('button', { name: 'Block COD' }).click()
    await notified(page, 'COD blocked at pincode')
    await page.getByTestId('cod-blocked').getByRole('cell', { name: '560034', exact: true }).waitFor()
    assert.deepEqual((await adminApi('GET', `/partners/${partner.id}/cod-blocked-pincodes`)).data.map((b: { pincode: string; reason: string }) => [b.pincode, b.reason]), [['560034', 'Repeated refusals at the door']])
    await shot(page, '30-cash-on-delivery')
    await page.getByRole('button', { name: 'Unblock 560034' }).click()
    await notified(page, 'COD unblocked at pincode')
    await page.getByTestId('cod-blocked').getByText('COD is not blocked at any pincode').waitFor()
    assert.deepEqual((await adminApi('GET', `/partners/${partner.id}/cod-blocked-pincodes`)).data, [])
  })

  test('ADMIN registers a catalog\'s GST seller: a bad GSTIN shows the API\'s message and saves nothing, a valid one is saved and links its registration; its GSTR-1 CSV downloads', async () => {
    // A catalog of its own: with a seller, orders of products without GST data are refused, and other tests order from the shop.
    const catalog = (await adminApi('POST', '/catalogs', { name: 'GST console catalog' })).data
    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'GSTR-1 and sellers' }).click()
    await choose(page, /^Catalog/, 'GST console catalog')
    await page.getByText('No GST seller is registered for this catalog').waitFor()
    await page.locator('input[name="legalName"]').fill('Acme Retail Private Limited')
    await page.locator('input[name="gstin"]').fill('27AAPFU0939F1ZW')
    await page.locator('input[name="address.line1"]').fill('12 Nariman Point')
    await page.locator('input[name="address.city"]').fill('Mumbai')
    await page.locator('input[name="address.state"]').fill('Maharashtra')
    await page.locator('input[name="address.pincode"]').fill('400021')
    await page.getByRole('button', { name: 'Save seller' }).click()
    await page.getByTestId('seller-error').filter({ hasText: /^gstin .*check character/ }).waitFor()
    await notified(page, /check character/)
    assert.equal((await adminCall('GET', `/catalogs/${catalog.id}/seller`)).statusCode, 404, 'nothing saved')

    await page.locator('input[name="gstin"]').fill('27AAPFU0939F1ZV')
    await page.getByRole('button', { name: 'Save seller' }).click()
    await notified(page, 'Seller saved')
    await page.getByTestId('seller-state').filter({ hasText: '27-Maharashtra' }).waitFor()
    const seller = (await adminApi('GET', `/catalogs/${catalog.id}/seller`)).data
    assert.deepEqual([seller.gstin, seller.legalName, seller.address.pincode], ['27AAPFU0939F1ZV', 'Acme Retail Private Limited', '400021'])
    // The registration it sells under is linked, and is the one the return is asked for.
    const link = page.getByTestId('seller-registration').getByRole('link')
    assert.equal(await link.getAttribute('href'), `#/gstRegistrations/${seller.registrationId}`)
    await page.getByTestId('gstr1-registration').filter({ hasText: 'Acme Retail Private Limited' }).waitFor()
    await shot(page, '31-gst-seller')

    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()])
    assert.equal(file.suggestedFilename(), `gstr1-27AAPFU0939F1ZV-${thisPeriod()}.csv`)
    const csv = readFileSync(await file.path(), 'utf8')
    assert.match(csv.split('\n')[0]!, /^section,/)
    await notified(page, /GSTR-1 downloaded/)
    await link.click()
    await page.locator('input[name="prefixes.invoice"]').waitFor()
    assert.equal(await page.locator('input[name="gstin"]').inputValue(), '27AAPFU0939F1ZV')
    await page.getByTestId('registration-catalogs').filter({ hasText: 'GST console catalog' }).waitFor()
  })

  test('ADMIN creates a GST registration (a bad GSTIN shows the API\'s message and saves nothing), edits its prefix (a refused one shows the API\'s message) and filing frequency, finds it by name, and downloads its GSTR-1 for the portal', async () => {
    const gstin = `29AABCU9603R1Z${gstinCheckCharacter('29AABCU9603R1Z')}`
    const page = await signedIn('ADMIN')
    await page.getByRole('menuitem', { name: 'GST registrations' }).click()
    await listShown(page)
    await page.getByRole('link', { name: /create/i }).click()
    await page.locator('input[name="gstin"]').fill('29AABCU9603R1ZK')
    await page.locator('input[name="legalName"]').fill('Udupi Foods Private Limited')
    await page.locator('input[name="tradeName"]').fill('Udupi Foods')
    await page.locator('input[name="address.line1"]').fill('14 Old Airport Road')
    await page.locator('input[name="address.city"]').fill('Bengaluru')
    await page.locator('input[name="address.state"]').fill('Karnataka')
    await page.locator('input[name="address.pincode"]').fill('560038')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('registration-error').filter({ hasText: /^gstin .*check character/ }).waitFor()
    await notified(page, /check character/)
    assert.equal((await adminApi('GET', `/gst/registrations?search=AABCU9603R`)).meta.total, 0, 'nothing saved')

    await page.locator('input[name="gstin"]').fill(gstin)
    await choose(page, /^GSTR-1 filing/, 'Quarterly (QRMP)')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /created/i)
    const [created] = (await adminApi('GET', `/gst/registrations?search=${gstin}`)).data
    assert.deepEqual([created.gstin, created.legalName, created.stateName, created.filingFrequency, created.prefixes], [gstin, 'Udupi Foods Private Limited', 'Karnataka', 'QUARTERLY', { invoice: 'IN', billOfSupply: 'BS', creditNote: 'CN' }])

    // Edited: the GSTIN is read-only; a prefix the API refuses shows its message; then a new invoice prefix and monthly filing.
    await page.waitForURL(new RegExp(`#/gstRegistrations/${created.id}$`))
    await page.getByTestId('registration-catalogs').filter({ hasText: 'Catalogs selling under it: none' }).waitFor()
    assert.equal(await page.locator('input[name="gstin"]').isEditable(), false, 'the GSTIN is read-only')
    await page.locator('input[name="prefixes.invoice"]').fill('BS')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('registration-error').filter({ hasText: /prefix/ }).waitFor()
    assert.equal((await adminApi('GET', `/gst/registrations/${created.id}`)).data.prefixes.invoice, 'IN', 'nothing saved')
    await page.locator('input[name="prefixes.invoice"]').fill('UF')
    await choose(page, /^GSTR-1 filing/, 'Monthly')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /updated/i)
    const edited = (await adminApi('GET', `/gst/registrations/${created.id}`)).data
    assert.deepEqual([edited.prefixes, edited.filingFrequency, edited.gstin], [{ invoice: 'UF', billOfSupply: 'BS', creditNote: 'CN' }, 'MONTHLY', gstin])
    // The list, searched by name on the server: GSTIN, legal name, state, filing, prefixes, catalogs.
    await page.waitForURL(/#\/gstRegistrations$/)
    await searchList(page, page.locator('input[name="q"]'), 'Udupi', 1)
    assert.deepEqual(await page.locator('main tbody tr td').allTextContents(), [gstin, 'Udupi Foods Private Limited', '29-Karnataka', 'MONTHLY', 'UF · BS · CN', '0'])
    await shot(page, '43-gst-registrations')

    // The portal's GSTR-1 of this GSTIN for the current month.
    await page.getByRole('menuitem', { name: 'GSTR-1 and sellers' }).click()
    await page.getByRole('combobox', { name: 'GSTIN' }).fill('Udupi')
    await page.getByRole('option', { name: `${gstin} · Udupi Foods Private Limited` }).click()
    // The pick stands, whatever the catalog picked by default sells under (its seller loads on its own time).
    await page.getByTestId('gstr1-registration').filter({ hasText: 'Udupi Foods Private Limited · files monthly' }).waitFor()
    assert.match((await page.getByTestId('gstr1-period').textContent()) ?? '', new RegExp(thisPeriod()))
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON (portal)' }).click()])
    assert.equal(file.suggestedFilename(), `gstr1-${gstin}-${thisPeriod()}.json`)
    const portal = JSON.parse(readFileSync(await file.path(), 'utf8'))
    assert.deepEqual([portal.gstin, portal.fp], [gstin, thisPeriod()])
    await notified(page, /GSTR-1 downloaded/)
    await shot(page, '44-gstr1-download')
  })

  test('ADMIN records a partner\'s GSTIN as an e-commerce operator: a GSTIN the API refuses shows its 400 and saves nothing; emptied, it is null', async () => {
    const page = await signedIn('ADMIN')
    const partner = (await adminApi('POST', '/partners', { name: 'ECO console partner' })).data.partner
    const eco = `29AABCF8078M1C${gstinCheckCharacter('29AABCF8078M1C')}`
    await page.goto(`${base}/admin#/partners/${partner.id}/show`)
    await page.getByRole('link', { name: 'Edit' }).first().click()
    await page.getByLabel('E-commerce operator GSTIN').fill('29AABCF8078M1X8')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('partner-error').filter({ hasText: /^ecoGstin / }).waitFor()
    await shot(page, '45-partner-edit')
    assert.equal((await adminApi('GET', `/partners/${partner.id}`)).data.ecoGstin, null, 'nothing saved')
    await page.getByLabel('E-commerce operator GSTIN').fill(eco)
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('partner-eco-gstin').filter({ hasText: eco }).waitFor()
    assert.equal((await adminApi('GET', `/partners/${partner.id}`)).data.ecoGstin, eco)
    await page.getByRole('link', { name: 'Edit' }).first().click()
    await page.getByLabel('E-commerce operator GSTIN').fill('')
    await page.getByRole('button', { name: 'Save' }).click()
    await page.getByTestId('partner-eco-gstin').filter({ hasText: 'none' }).waitFor()
    assert.equal((await adminApi('GET', `/partners/${partner.id}`)).data.ecoGstin, null)
  })

  test('CATALOG sees the GST rates in force and the products that cannot be taxed (a server page); a row opens the product, where an HSN code and a rate fix it', async () => {
    const staples = await categoryOf('staples')
    const created = (await adminApi('POST', `/catalogs/${shop.catalogId}/products`, { name: 'Steel tiffin box', slug: 'steel-tiffin', brand: 'Milton', sku: 'T-1', categoryId: staples.id, sellingPrice: '450.00', mrp: '500.00', stock: 3 })).data
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'GST rates' }).click()
    await listShown(page)
    const rates = (await adminApi('GET', '/tax/rates')).data as { label: string }[]
    assert.deepEqual(await page.locator('main table tbody tr td:first-child').allTextContents(), rates.map((r) => r.label))
    await shot(page, '32-gst-rates')

    await page.getByRole('menuitem', { name: 'Untaxable products' }).click()
    await page.getByLabel('Catalog', { exact: true }).click()
    await page.getByRole('option', { name: /^Shop / }).last().click()
    // The list takes the catalog through react-admin's debounced filter, which navigates to the list
    // when it fires: open a row only once the address has it (else the product's form is left).
    await page.waitForURL((url) => decodeURIComponent(url.href).includes(shop.catalogId), WAIT)
    const missing = await adminApi('GET', `/catalogs/${shop.catalogId}/tax/missing?limit=25`)
    await page.getByRole('cell', { name: 'Steel tiffin box' }).waitFor()
    assert.ok(missing.data.products.some((p: { id: string; problems: string[] }) => p.id === created.id && p.problems.includes('HSN_CODE_MISSING')))
    assert.equal(await page.locator('main table tbody tr').count(), missing.data.products.length)
    await page.getByText(`of ${missing.meta.total}`).first().waitFor()
    await shot(page, '33-untaxable-products')
    await page.getByRole('cell', { name: 'Steel tiffin box' }).click()
    await page.locator('input[name="hsnCode"]').fill('7323')
    await choose(page, /^GST rate/, '5 %')
    await page.getByRole('button', { name: 'Save' }).click()
    await notified(page, /updated/i)
    const after = await adminApi('GET', `/catalogs/${shop.catalogId}/tax/missing?limit=100`)
    assert.ok(!after.data.products.some((p: { id: string }) => p.id === created.id), 'fixed: no longer listed')
    assert.equal(after.meta.total, missing.meta.total - 1)
  })

  test('role limits of the new screens: SUPPORT has no COD, GST, stock location, ledger or product creation; CATALOG has GST rates and untaxable products but no COD rules or seller', async () => {
    const notFound = (page: Page) => page.getByText(/not found/i).first().waitFor()
    const support = await signedIn('SUPPORT')
    await support.getByRole('menuitem', { name: 'Orders' }).waitFor()
    for (const name of ['Cash on delivery', 'GSTR-1 and sellers', 'GST registrations', 'GST rates', 'Untaxable products', 'Stock locations', 'Inventory ledger']) assert.equal(await support.getByRole('menuitem', { name }).count(), 0, `SUPPORT sees ${name}`)
    for (const path of ['products/create', 'categories/create', 'cod', 'gst', 'gstRegistrations', 'gstRegistrations/create', 'untaxedProducts', 'locations', 'locations/create', 'inventoryMoves']) {
      await support.goto(`${base}/admin#/${path}`)
      await notFound(support)
      assert.equal(await support.locator('main form, main table').count(), 0, `SUPPORT opens ${path}`)
    }

    const catalog = await signedIn('CATALOG')
    await catalog.getByRole('menuitem', { name: 'GST rates' }).waitFor()
    await catalog.getByRole('menuitem', { name: 'Untaxable products' }).waitFor()
    for (const name of ['Cash on delivery', 'GSTR-1 and sellers', 'GST registrations', 'Serviceability zones']) assert.equal(await catalog.getByRole('menuitem', { name }).count(), 0, `CATALOG sees ${name}`)
    for (const path of ['cod', 'gst', 'gstRegistrations', 'gstRegistrations/create', 'zones/create']) {
      await catalog.goto(`${base}/admin#/${path}`)
      await notFound(catalog)
      assert.equal(await catalog.locator('main form').count(), 0, `CATALOG opens ${path}`)
    }
  })

  test('CATALOG gives a product options (Size S, M, L; Colour Red, Blue), generates the six combinations, bulk-sets their price and adds to their stock, saves once, and the API stores those variants (the first keeping the default variant\'s id); the product form then shows its summary read-only', async () => {
    const audio = await categoryOf('audio')
    const created = (await adminApi('POST', `/catalogs/${shop.catalogId}/products`, { name: 'Console kurta', slug: 'console-kurta', brand: 'Fabindia', sku: 'CK-1', categoryId: audio.id, sellingPrice: '899.00', mrp: '999.00', stock: 7 })).data
    const defaultId = created.variants[0].id
    const page = await signedIn('CATALOG')
    await page.goto(`${base}/admin#/products/${created.id}`)
    const editor = page.getByTestId('variant-editor')
    await editor.getByRole('button', { name: 'Add options' }).click()
    await editor.getByLabel('Option 1 name').fill('Size')
    for (const value of ['S', 'M', 'L']) {
      await editor.getByLabel('New Size value').fill(value)
      await editor.getByLabel('New Size value').press('Enter')
    }
    await editor.getByRole('button', { name: 'Add option', exact: true }).click()
    await editor.getByLabel('Option 2 name').fill('Colour')
    for (const value of ['Red', 'Blue']) {
      await editor.getByLabel('New Colour value').fill(value)
      await editor.getByRole('button', { name: 'Add Colour value' }).click()
    }
    await editor.getByRole('button', { name: 'Generate combinations' }).click()
    await editor.getByTestId('variants-notice').getByText('6 variants: 5 added').waitFor()
    assert.equal(await editor.getByTestId('variant-row').count(), 6)
    assert.equal(await editor.getByLabel('SKU of S / Red').inputValue(), 'CK-1', "the product's own fields are the first combination")

    await editor.getByLabel('Select all variants').check()
    await choose(page, /^Change/, 'Selling price (₹)')
    await editor.getByLabel('Value', { exact: true }).fill('749')
    await editor.getByRole('button', { name: 'Apply to selected' }).click()
    await choose(page, /^Change/, 'Stock')
    await choose(page, /^How/, 'Add')
    await editor.getByLabel('Value', { exact: true }).fill('5')
    await editor.getByRole('button', { name: 'Apply to selected' }).click()
    await editor.getByTestId('variants-notice').getByText('6 variants changed: save to write them').waitFor()
    assert.equal(await editor.getByLabel('Selling price of M / Blue').inputValue(), '749.00')
    assert.equal(await editor.getByLabel('Stock of S / Red').inputValue(), '12')
    await editor.getByLabel('Select L / Blue').uncheck()
    await editor.getByLabel('Barcode of S / Red').fill('12345670')
    await editor.evaluate('(element) => element.scrollIntoView()')
    await shot(page, '53-variant-grid')
    assert.ok(Number(await page.evaluate('document.documentElement.scrollWidth')) <= DESKTOP.width, 'the grid scrolls inside its card, not the page')

    await editor.getByRole('button', { name: 'Save variants' }).click()
    await notified(page, 'Variants saved')
    const stored = (await adminApi('GET', `/products/${created.id}`)).data
    assert.deepEqual(stored.options, [
      { name: 'Size', values: ['S', 'M', 'L'] },
      { name: 'Colour', values: ['Red', 'Blue'] },
    ])
    assert.deepEqual(
      stored.variants.map((v: { title: string; sku: string; sellingPrice: string; mrp: string; stock: number; barcode: string | null }) => [v.title, v.sku, v.sellingPrice, v.mrp, v.stock, v.barcode]),
      [
        ['S / Red', 'CK-1', '749.00', '999.00', 12, '12345670'],
        ['S / Blue', 'CONSOLE-KURTA-S-BLUE', '749.00', '999.00', 5, null],
        ['M / Red', 'CONSOLE-KURTA-M-RED', '749.00', '999.00', 5, null],
        ['M / Blue', 'CONSOLE-KURTA-M-BLUE', '749.00', '999.00', 5, null],
        ['L / Red', 'CONSOLE-KURTA-L-RED', '749.00', '999.00', 5, null],
        ['L / Blue', 'CONSOLE-KURTA-L-BLUE', '749.00', '999.00', 5, null],
      ],
    )
    assert.equal(stored.variants[0].id, defaultId, "the product's first variant keeps the default variant's id")
    assert.deepEqual([stored.sku, stored.sellingPrice, stored.stock], ['CK-1', '749.00', 37], 'the summary')

    // The product form now shows the summary, read-only; the grid shows what was stored.
    await page.getByTestId('variant-summary-note').waitFor()
    await valueBecomes(page.locator('input[name="stock"]'), '37')
    for (const name of ['sku', 'sellingPrice', 'mrp', 'stock']) assert.notEqual(await page.locator(`input[name="${name}"]`).getAttribute('readonly'), null, `${name} is read-only`)
    assert.equal(await editor.getByLabel('Stock of M / Red').inputValue(), '5')
  })

  test("CATALOG's variant saves the API refuses keep its message beside the grid, the cell it names marked, and save nothing: a SKU of another product (409), a barcode whose check digit is wrong (400); a save leaves a stock it did not edit as the orders since left it, and one editing a stock that moved since is refused", async () => {
    const audio = await categoryOf('audio')
    await adminApi('POST', `/catalogs/${shop.catalogId}/products`, { name: 'Console tee taken', slug: 'console-tee-taken', brand: 'Jockey', sku: 'CT-TAKEN', categoryId: audio.id, sellingPrice: '299.00', mrp: '399.00', stock: 1 })
    const tee = (await adminApi('POST', `/catalogs/${shop.catalogId}/products`, { name: 'Console tee', slug: 'console-tee', brand: 'Jockey', sku: 'CT-1', categoryId: audio.id, sellingPrice: '299.00', mrp: '399.00', stock: 1 })).data
    const grid = {
      options: [{ name: 'Size', values: ['S', 'M'] }],
      variants: [
        { options: [{ name: 'Size', value: 'S' }], sku: 'CT-S', sellingPrice: '299.00', mrp: '399.00', stock: 3 },
        { options: [{ name: 'Size', value: 'M' }], sku: 'CT-M', sellingPrice: '299.00', mrp: '399.00', stock: 4 },
      ],
    }
    const before = (await adminApi('PUT', `/products/${tee.id}/variants`, grid)).data
    const page = await signedIn('CATALOG')
    await page.goto(`${base}/admin#/products/${tee.id}`)
    const editor = page.getByTestId('variant-editor')
    const error = editor.getByTestId('variants-error')

    // Two rows changed: the whole grid (PUT), refused with a 409 naming variants[1].sku.
    await editor.getByLabel('SKU of M').fill('CT-TAKEN')
    await editor.getByLabel('Stock of S').fill('9')
    await editor.getByRole('button', { name: 'Save variants' }).click()
    await error.getByText(/variants\[1\]\.sku CT-TAKEN is already the SKU of another product or variant in this catalog/).waitFor()
    await notified(page, /CT-TAKEN/)
    assert.equal(await editor.getByLabel('SKU of M').getAttribute('aria-invalid'), 'true', 'the cell named is marked')
    await page.locator('.MuiSnackbar-root').waitFor({ state: 'detached' }) // the message stays beside the grid after the notification goes
    await shot(page, '54-variant-grid-refused')

    // One row changed: that variant alone (PATCH), refused with the API's 400.
    await editor.getByLabel('SKU of M').fill('CT-M')
    await editor.getByLabel('Stock of S').fill('3')
    await editor.getByLabel('Barcode of S').fill('12345678')
    await editor.getByRole('button', { name: 'Save variants' }).click()
    await error.getByText(/barcode 12345678 is not a GTIN/).waitFor()
    assert.deepEqual((await adminApi('GET', `/products/${tee.id}`)).data.variants, before.variants, 'nothing saved')

    // An order's worth of stock moves after the grid was read. A save that does not edit that stock
    // goes through and leaves the units as the order left them (PUT leaves an unedited stock out).
    await adminApi('PATCH', `/products/${tee.id}/variants/${before.variants[1].id}`, { stock: 2 })
    await editor.getByLabel('Barcode of S').fill('')
    await editor.getByLabel('Stock of S').fill('8')
    await editor.getByLabel('Selling price of M').fill('279')
    await editor.getByRole('button', { name: 'Save variants' }).click()
    await notified(page, 'Variants saved')
    const saved = (await adminApi('GET', `/products/${tee.id}`)).data.variants
    assert.deepEqual([saved[0].stock, saved[1].stock, saved[1].sellingPrice], [8, 2, '279.00'], 'S as edited, M priced as edited with the units the order left')
    await valueBecomes(editor.getByLabel('Stock of M'), '2')
    // One that edits a stock that moved since is refused, naming the move.
    await adminApi('PATCH', `/products/${tee.id}/variants/${before.variants[1].id}`, { stock: 1 })
    await editor.getByLabel('Stock of M').fill('5')
    await editor.getByLabel('Stock of S').fill('7')
    await editor.getByRole('button', { name: 'Save variants' }).click()
    await error.getByText(/M: stock 2 → 1\. Nothing was saved/).waitFor()
    assert.equal((await adminApi('GET', `/products/${tee.id}`)).data.variants[0].stock, 8, 'nothing saved')
    await editor.getByRole('button', { name: 'Reload the grid' }).click()
    await valueBecomes(editor.getByLabel('Stock of M'), '1')
    assert.equal(await error.count(), 0)
  })

  test("CATALOG opens a catalog's first stock location (warned that it takes the catalog's stock; not saved until confirmed), receives and adjusts units there; ADMIN opens a second in another state (the 400 naming registrationId on screen, then saved under a registration of that state) and cannot close it while it holds units; units transferred between them; the ledger shows each move newest first, signed, with who, why and the order that took a unit", async () => {
    // A catalog of its own, selling under a Karnataka GSTIN (so a location in another state needs a registration there).
    const own = await givenShop(t)
    const catalogName = (await adminApi('GET', '/catalogs')).data.find((c: { id: string }) => c.id === own.catalogId).name as string
    const seller = { legalName: 'Kaveri Stores Private Limited', tradeName: null, gstin: `29AAKCK4321P1Z${gstinCheckCharacter('29AAKCK4321P1Z')}`, address: { line1: '100 Feet Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560038' } }
    await adminApi('PUT', `/catalogs/${own.catalogId}/seller`, seller)
    const konkan = `27AAKCK4321P1Z${gstinCheckCharacter('27AAKCK4321P1Z')}`
    const maharashtra = (await adminApi('POST', '/gst/registrations', { legalName: 'Konkan Stores Private Limited', tradeName: null, gstin: konkan, address: { line1: 'Plot 7, Vadpe', city: 'Bhiwandi', state: 'Maharashtra', pincode: '421302' } })).data
    await adminApi('PATCH', `/products/${own.ids.atta}`, { hsnCode: '1101', gstRateBps: 500 })
    const inStock = ((await adminApi('GET', `/catalogs/${own.catalogId}/products?limit=100`)).data as { stock: number }[]).reduce((n, p) => n + p.stock, 0)
    const locations = async () => (await adminApi('GET', `/catalogs/${own.catalogId}/locations`)).data as { id: string; name: string; unitsOnHand: number; registrationId: string | null; isActive: boolean }[]
    const levelOf = async (locationId: string, productId: string) => ((await adminApi('GET', `/locations/${locationId}/stock?limit=100`)).data as { productId: string; onHand: number }[]).find((l) => l.productId === productId)?.onHand ?? 0

    // CATALOG: the catalog's first location, after the warning and its confirmation.
    const page = await signedIn('CATALOG')
    await page.getByRole('menuitem', { name: 'Stock locations' }).click()
    await choose(page, /^Catalog/, catalogName)
    await page.waitForURL(/catalogId/)
    await page.getByTestId('no-locations').waitFor()
    await page.getByRole('link', { name: /create/i }).click()
    const warning = page.getByTestId('first-location-warning')
    await warning.getByText(/first stock location\. Saving it moves every unit the catalog has in stock here/).waitFor()
    await page.locator('input[name="name"]').fill('Bengaluru warehouse')
    await page.locator('input[name="addressLine1"]').fill('14 Old Airport Road')
    await page.locator('input[name="city"]').fill('Bengaluru')
    await page.locator('input[name="state"]').fill('Karnataka')
    await page.locator('input[name="pincode"]').fill('560038')
    await page.locator('input[name="pickupName"]').fill('BLR-WH')
    await page.getByRole('button', { name: 'Save' }).click()
    await warning.getByText("Switch this on to confirm: the catalog's stock moves here").waitFor()
    assert.deepEqual(await locations(), [], 'nothing saved before the confirmation')
    await page.evaluate('window.scrollTo(0, 0)')
    await shot(page, '61-first-location-warning')
    await warning.getByLabel("Move the catalog's stock to this location").check()
    await page.getByRole('button', { name: 'Save' }).click()
    await page.waitForURL(/#\/locations\/loc_[^/]+\/show$/)
    const [bengaluru] = await locations()
    assert.equal(bengaluru!.unitsOnHand, inStock, "the catalog's stock is its opening balance")
    await page.getByTestId('location-units').getByText(`Holds ${inStock} units`).waitFor()
    const levels = page.getByTestId('levels')
    await levels.getByRole('row', { name: /Atta 5 kg A-1 100/ }).waitFor()

    // Units received (a negative receipt is refused on screen first), then a count adjusted down.
    await levels.getByRole('button', { name: 'Choose Atta 5 kg' }).click()
    const receive = page.getByTestId('receive-adjust')
    await receive.getByRole('heading', { name: 'Receive or adjust: Atta 5 kg' }).waitFor()
    await receive.getByLabel('Units received').fill('-5')
    await receive.getByLabel('Reason').fill('PO 4471 from Surat')
    await receive.getByRole('button', { name: 'Receive units' }).click()
    await receive.getByTestId('stock-move-error').getByText(/Units received are above 0/).waitFor()
    await receive.getByLabel('Units received').fill('20')
    await receive.getByRole('button', { name: 'Receive units' }).click()
    await notified(page, 'Stock moved')
    await levels.getByRole('row', { name: /Atta 5 kg A-1 120/ }).waitFor()
    assert.equal(await levelOf(bengaluru!.id, own.ids.atta!), 120)
    await choose(page, /^Kind/, 'Adjust (a count corrected)')
    await receive.getByLabel('Units to add or take').fill('-3')
    await receive.getByLabel('Reason').fill('Damaged in the rain')
    await receive.getByRole('button', { name: 'Adjust units' }).click()
    await levels.getByRole('row', { name: /Atta 5 kg A-1 117/ }).waitFor()
    assert.equal(await levelOf(bengaluru!.id, own.ids.atta!), 117)
    await page.getByTestId('location-units').getByText(`Holds ${inStock + 17} units`).waitFor()

    // ADMIN: a second location, in Maharashtra: no warning; refused under the Karnataka seller (the
    // API's 400 naming registrationId on screen, nothing saved), saved under the Maharashtra registration.
    const admin = await signedIn('ADMIN')
    await admin.getByRole('menuitem', { name: 'Stock locations' }).click()
    await choose(admin, /^Catalog/, catalogName)
    await admin.waitForURL(/catalogId/)
    await admin.getByRole('cell', { name: 'Bengaluru warehouse' }).waitFor()
    await admin.getByRole('link', { name: /create/i }).click()
    await admin.locator('input[name="name"]').fill('Mumbai store')
    await admin.locator('input[name="addressLine1"]').fill('4 Marine Drive')
    await admin.locator('input[name="city"]').fill('Mumbai')
    await admin.locator('input[name="state"]').fill('Maharashtra')
    await admin.locator('input[name="pincode"]').fill('400001')
    await admin.locator('input[name="position"]').fill('1')
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.getByTestId('location-error').getByText(/^registrationId: the location is in Maharashtra and the catalog's GST seller in Karnataka/).waitFor()
    assert.equal(await admin.getByTestId('first-location-warning').count(), 0, 'no warning: not the first location')
    assert.equal((await locations()).length, 1, 'nothing saved')
    await admin.getByRole('combobox', { name: 'GST registration' }).fill('Konkan')
    await admin.getByRole('option', { name: `${konkan} · Konkan Stores Private Limited (Maharashtra)` }).click()
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.waitForURL(/#\/locations\/loc_[^/]+\/show$/)
    await admin.getByTestId('levels').getByText('No units here.').waitFor()
    const mumbai = (await locations()).find((l) => l.name === 'Mumbai store')!
    assert.equal(mumbai.registrationId, maharashtra.id)

    // CATALOG transfers units to Mumbai: too many is the API's 409 beside the form; then 15.
    await page.getByRole('menuitem', { name: 'Stock locations' }).click()
    await page.getByRole('cell', { name: 'Bengaluru warehouse' }).click()
    await levels.getByRole('button', { name: 'Choose Atta 5 kg' }).click()
    const transfer = page.getByTestId('transfer')
    await transfer.getByRole('heading', { name: 'Transfer to another location: Atta 5 kg' }).waitFor()
    await choose(page, /^To/, 'Mumbai store (Mumbai)')
    await transfer.getByLabel('Units to transfer').fill('1000')
    await transfer.getByLabel('Reason').fill('Stock for the Mumbai store')
    await transfer.getByRole('button', { name: 'Transfer units' }).click()
    await transfer.getByTestId('transfer-error').getByText(/Bengaluru warehouse holds fewer than 1000 units/).waitFor()
    await transfer.getByLabel('Units to transfer').fill('15')
    await transfer.getByRole('button', { name: 'Transfer units' }).click()
    await notified(page, 'Stock transferred')
    await levels.getByRole('row', { name: /Atta 5 kg A-1 102/ }).waitFor()
    assert.deepEqual([await levelOf(bengaluru!.id, own.ids.atta!), await levelOf(mumbai.id, own.ids.atta!)], [102, 15])
    await page.getByTestId('transfer-error').waitFor({ state: 'detached' })
    await page.evaluate('window.scrollTo(0, 0)')
    await shot(page, '56-location-stock')

    // ADMIN cannot close Mumbai while it holds units (the API's 409 on the form).
    await admin.goto(`${base}/admin#/locations/${mumbai.id}`)
    await admin.getByLabel('Active (open to allocation)').uncheck()
    await admin.getByRole('button', { name: 'Save' }).click()
    await admin.getByTestId('location-error').getByText(/holds 15 units: transfer them to another location/).waitFor()
    assert.equal((await locations()).find((l) => l.id === mumbai.id)!.isActive, true, 'still open')

    // An order takes a unit from Bengaluru (the nearest holding it): a SALE in the ledger.
    const customer = await givenCustomer(t.app, own.partner)
    const placed = await placeOrder(t, customer, { items: [{ productId: own.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'COD' })
    assert.equal(placed.statusCode, 201, placed.body)
    const order = placed.json().data as { id: string; orderNumber: string }

    await admin.getByRole('menuitem', { name: 'Stock locations' }).click()
    await choose(admin, /^Catalog/, catalogName)
    await admin.getByRole('cell', { name: 'Mumbai store' }).waitFor()
    await admin.getByRole('cell', { name: `${konkan} (Maharashtra)` }).waitFor()
    await shot(admin, '55-stock-locations')

    // The ledger of Bengaluru's atta, newest first: every move, signed, with who, why and what it belongs to.
    await admin.getByRole('menuitem', { name: 'Inventory ledger' }).click()
    await choose(admin, /^Catalog/, catalogName)
    await admin.waitForURL(/catalogId/)
    await choose(admin, /^Location/, 'Bengaluru warehouse')
    await admin.getByRole('combobox', { name: 'Product' }).fill('Atta')
    await admin.getByRole('option', { name: 'Atta 5 kg (A-1)' }).click()
    const transferId = (await adminApi('GET', `/catalogs/${own.catalogId}/inventory-moves?kind=TRANSFER_OUT`)).data[0].reference as string
    await cellsBecome(admin, [
      ['Bengaluru warehouse', 'Atta 5 kg', 'SALE', '-1', 'system', 'Order placed', `order ${order.orderNumber}`],
      ['Bengaluru warehouse', 'Atta 5 kg', 'TRANSFER_OUT', '-15', 'catalog@console.test', 'Stock for the Mumbai store', `transfer ${transferId}`],
      ['Bengaluru warehouse', 'Atta 5 kg', 'ADJUST', '-3', 'catalog@console.test', 'Damaged in the rain', '—'],
      ['Bengaluru warehouse', 'Atta 5 kg', 'RECEIVE', '+20', 'catalog@console.test', 'PO 4471 from Surat', '—'],
      ['Bengaluru warehouse', 'Atta 5 kg', 'RECEIVE', '+100', 'catalog@console.test', 'Opening balance', '—'],
    ])
    await shot(admin, '57-inventory-ledger')
    // The other end of the transfer, at Mumbai by its kind.
    await choose(admin, /^Location/, 'Mumbai store')
    await choose(admin, /^Kind/, /^TRANSFER_IN/)
    await cellsBecome(admin, [['Mumbai store', 'Atta 5 kg', 'TRANSFER_IN', '+15', 'catalog@console.test', 'Stock for the Mumbai store', `transfer ${transferId}`]])
    // The order's page, from the move that took its unit.
    await choose(admin, /^Location/, 'Bengaluru warehouse')
    await choose(admin, /^Kind/, /^SALE/)
    await admin.getByRole('link', { name: `order ${order.orderNumber}` }).click()
    await admin.waitForURL(new RegExp(`#/orders/${order.id}/show$`))
    await admin.getByText(order.orderNumber).first().waitFor()

    // At phone width: the list, the stock page (a level tapped chooses its unit) and the ledger, none scrolling sideways.
    const phone = await signedIn('ADMIN', PHONE)
    await phone.goto(`${base}/admin#/locations?filter=${encodeURIComponent(JSON.stringify({ catalogId: own.catalogId }))}`)
    await phone.locator('main').getByText('Mumbai store').waitFor()
    await shot(phone, '58-phone-stock-locations')
    await phone.goto(`${base}/admin#/locations/${bengaluru!.id}/show`)
    await phone.getByTestId('levels').getByText('Earbuds').click()
    await phone.getByRole('heading', { name: 'Receive or adjust: Earbuds' }).waitFor()
    await shot(phone, '59-phone-location-stock')
    await phone.goto(`${base}/admin#/inventoryMoves?filter=${encodeURIComponent(JSON.stringify({ catalogId: own.catalogId, kind: 'TRANSFER_IN' }))}`)
    await phone.locator('main').getByText(`transfer ${transferId}`).waitFor()
    await shot(phone, '60-phone-inventory-ledger')
  })

  test('the new screens at phone width (390×844): product and zone forms, COD, GST seller and GSTR-1, GST registrations (list and form), untaxable products, without sideways scrolling', async () => {
    const phone = await signedIn('ADMIN', PHONE)
    for (const [path, ready, name] of [
      ['products/create', 'input[name="sku"]', '34-phone-product-create'],
      ['zones/create', 'input[name="pincodes.0.prefix"]', '35-phone-zone-create'],
      ['cod', 'input[name="maxCodValue"]', '36-phone-cash-on-delivery'],
      ['gst', 'input[name="gstin"]', '37-phone-gst-seller'],
      ['gstRegistrations/create', 'input[name="prefixes.invoice"]', '41-phone-gst-registration-create'],
      ['gstRegistrations', 'main ul a, main ul li', '42-phone-gst-registrations'],
      ['untaxedProducts', 'main ul a, main ul li', '38-phone-untaxable-products'],
    ] as const) {
      await phone.goto(`${base}/admin#/${path}`)
      await phone.locator(ready).first().waitFor()
      await shot(phone, name)
      assert.ok(Number(await phone.evaluate('document.documentElement.scrollWidth')) <= PHONE.width, `${path} scrolls sideways`)
    }
  })
})
