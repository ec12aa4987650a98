// A partner's checkout with @commerce-api/sdk, end to end: the partner's server exchanges its
// credentials for a customer's tokens, browses and searches the catalog, quotes a cart, places a
// prepaid order, pays it on the sandbox checkout, then receives the signed payment.succeeded event
// and verifies it.
//
// Against a running server (`npm start`), with the demo partner's credentials it wrote to
// data/credentials.json (or COMMERCE_CREDENTIALS=<file>; COMMERCE_BASE_URL, COMMERCE_API_KEY,
// COMMERCE_PARTNER_ID and COMMERCE_PARTNER_SECRET override it):
//   node --import tsx packages/sdk/examples/partner-checkout.ts
// It can run any number of times: it points the partner's webhook at its own receiver for the
// length of the run, then puts back the URL it found (or removes it); when the webhook has a
// secret already, it rotates it (the previous one keeps working for the overlap).
// test/sdk/example.test.ts runs it against the app in-process.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createCommerceClient, verifyWebhook, type WebhookEvent } from '../src/index.ts'

export interface PartnerCheckoutConfig {
  baseUrl: string
  apiKey: string
  partnerId: string
  partnerSecret: string
  /** The customer's verified mobile. */
  phone: string
  log?: (line: string) => void
}

export interface PartnerCheckoutResult {
  orderId: string
  orderNumber: string
  status: string
  paymentStatus: string
  event: WebhookEvent<'payment.succeeded'>
}

const ADDRESS = {
  name: 'Asha Rao',
  phone: '9876543210',
  line1: '12 MG Road',
  landmark: 'Opposite the metro station',
  city: 'Bengaluru',
  state: 'Karnataka',
  pincode: '560001',
}

/** Receives the partner's webhooks on a local port: every raw body with its headers. */
async function webhookReceiver() {
  const deliveries: { rawBody: string; headers: Record<string, string | string[] | undefined> }[] = []
  const waiting: (() => void)[] = []
  const server = createServer((req, res) => {
    let rawBody = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (rawBody += chunk))
    req.on('end', () => {
      deliveries.push({ rawBody, headers: req.headers })
      res.end('ok')
      for (const wake of waiting.splice(0)) wake()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}/commerce-events`,
    /** The first delivery of this event type for this order, within `timeoutMs`. */
    async next(type: string, orderId: string, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = deliveries.find((d) => {
          const body = JSON.parse(d.rawBody) as { type: string; data: { orderId?: string } }
          return body.type === type && body.data.orderId === orderId
        })
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no ${type} event for ${orderId} within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          waiting.push(resolve)
          setTimeout(resolve, 250)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export async function partnerCheckout(config: PartnerCheckoutConfig): Promise<PartnerCheckoutResult> {
  const log = config.log ?? console.log
  const commerce = createCommerceClient({ baseUrl: config.baseUrl, apiKey: config.apiKey, partnerId: config.partnerId, partnerSecret: config.partnerSecret })
  const receiver = await webhookReceiver()
  let restoreWebhook: (() => Promise<unknown>) | undefined
  try {
    // The partner's server points its webhook at the receiver. The first time, the answer carries
    // the signing secret; after that, a partner that no longer has it rotates it.
    const { data: before } = await commerce.GET('/api/v1/partner/webhook')
    const previousUrl = before!.data.url
    restoreWebhook = () => (previousUrl ? commerce.PUT('/api/v1/partner/webhook', { body: { url: previousUrl } }) : commerce.DELETE('/api/v1/partner/webhook'))
    const { data: webhook } = await commerce.PUT('/api/v1/partner/webhook', { body: { url: receiver.url } })
    const webhookSecret = webhook!.data.secret ?? (await commerce.POST('/api/v1/partner/webhook/rotate-secret')).data!.data.secret!

    // 1. Partner token exchange: the customer's phone is verified by the partner's app.
    const customer = await commerce.exchangeCustomerToken({ phone: config.phone, name: 'Asha Rao' })
    log(`customer ${customer.userId} signed in`)

    // 2. Browse: categories, then every product page by page, then one product.
    const { data: categories } = await commerce.GET('/api/v1/categories')
    log(`${categories!.data.length} top categories`)
    let product: { id: string; slug: string; name: string } | undefined
    for await (const item of commerce.paginate('/api/v1/products', { params: { query: { limit: 20 } } })) {
      if (item.stock > 0) {
        product = item
        break
      }
    }
    if (!product) throw new Error('No product in stock in this catalog')
    const { data: detail } = await commerce.GET('/api/v1/products/{slug}', { params: { path: { slug: product.slug } } })
    log(`product ${detail!.data.name}: ₹${detail!.data.sellingPrice}`)

    // 3. Search for it by the first word of its name.
    const { data: found } = await commerce.GET('/api/v1/search', { params: { query: { q: product.name.split(' ')[0]! } } })
    log(`search found ${found!.data.products.length} products`)

    // 4. Quote the cart for the delivery pincode.
    const items = [{ productId: product.id, quantity: 1 }]
    const { data: quote } = await commerce.POST('/api/v1/wallet/quote', { body: { items, pincode: ADDRESS.pincode, paymentMode: 'PREPAID' } })
    log(`quote: ₹${quote!.data.remainingPayable} to pay`)

    // 5. Place a prepaid order: the client gives it an idempotency key, kept across its retries.
    const { data: placed } = await commerce.POST('/api/v1/orders', { body: { items, shippingAddress: ADDRESS, paymentMode: 'PREPAID' } })
    const order = placed!.data
    log(`order ${order.orderNumber} placed: ${order.status}`)

    // 6. Pay through the sandbox: the customer's browser would open the page; its Pay button does this.
    const sessionId = (order.paymentClientAction?.payload as { sessionId?: string } | null)?.sessionId
    if (!sessionId) throw new Error('The order has no sandbox payment session (is the sandbox provider configured?)')
    await commerce.POST('/api/v1/sandbox/checkout/{sessionId}/{action}', { params: { path: { sessionId, action: 'pay' } } })

    // 7. Receive the payment.succeeded event and verify it before believing it.
    const delivery = await receiver.next('payment.succeeded', order.id)
    const event = await verifyWebhook<'payment.succeeded'>(delivery.rawBody, delivery.headers, webhookSecret)
    log(`verified ${event.type} ${event.id}: ₹${event.data.amount}`)

    const { data: paid } = await commerce.GET('/api/v1/orders/{orderId}', { params: { path: { orderId: order.id } } })
    log(`order ${paid!.data.orderNumber}: ${paid!.data.status}, ${paid!.data.paymentStatus}`)
    return { orderId: order.id, orderNumber: order.orderNumber, status: paid!.data.status, paymentStatus: paid!.data.paymentStatus, event }
  } finally {
    await restoreWebhook?.()
    await receiver.close()
  }
}

/** The demo credentials `npm start` writes, overridden by the environment's. */
function credentials(env: NodeJS.ProcessEnv) {
  const file = env.COMMERCE_CREDENTIALS ?? 'data/credentials.json'
  let saved: { baseUrl?: string; apiKey?: string; partner?: { id?: string; secret?: string } } = {}
  try {
    saved = JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err
  }
  const pick = (name: string, value: string | undefined) => {
    const found = env[name] ?? value
    if (!found) throw new Error(`No ${name}: start the server once (npm start writes ${file}), or set ${name}`)
    return found
  }
  return {
    baseUrl: env.COMMERCE_BASE_URL ?? saved.baseUrl ?? 'http://localhost:3000',
    apiKey: pick('COMMERCE_API_KEY', saved.apiKey),
    partnerId: pick('COMMERCE_PARTNER_ID', saved.partner?.id),
    partnerSecret: pick('COMMERCE_PARTNER_SECRET', saved.partner?.secret),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await partnerCheckout({ ...credentials(process.env), phone: process.env.COMMERCE_CUSTOMER_PHONE ?? '9876543210' })
}
