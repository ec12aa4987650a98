// SE-07 (reliability plan 7.6, §5.1 API7): partner webhook URLs are the one place the server makes
// requests to addresses someone else chose. With a trap TCP listener on the loopback (both
// families when the machine has IPv6) counting every connection, an app with production settings
// (WEBHOOK_ALLOW_PRIVATE_NETWORKS and WEBHOOK_ALLOW_HTTP off) is given the §5.1 list: every form of
// IP literal the URL parser reads as a private address, `localhost`, userinfo tricks, other
// schemes. Each is 400 when set through the back office, and one stored anyway is refused again
// when sent. Names are only resolved when sending: names resolving to private addresses, and a
// name that answers public then private (DNS rebinding), are never connected to. Redirects are
// never followed, even where private networks are allowed. The trap counts 0 over the whole file.
//
// DNS answers for the *.rebind.test names come from a stand-in for dns.lookup (the module the
// dispatcher's guarded lookup calls); every other name goes to the real resolver.
import assert from 'node:assert/strict'
import dns, { type LookupAddress } from 'node:dns'
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http'
import { syncBuiltinESMExports } from 'node:module'
import { connect, createServer, type Server } from 'node:net'
import { hostname } from 'node:os'
import { after, before, describe, mock, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { isPrivateAddress } from '../../src/modules/events/outbound.ts'
import { setPartnerReturnOrigins, setPartnerWebhook } from '../../src/modules/partners/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, givenPartner } from '../helpers/factories.ts'
import { ADDRESS, givenShop, placeOrder, sandboxAction } from '../helpers/shop.ts'
import { uploadedImage } from '../helpers/uploads.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
const PRIVATE_REFUSAL = 'url must not point to a private or loopback address'

let trap: Server
let trapPort: number
let trapConnections = 0
let redirector: HttpServer
let redirectorPort: number
let redirectorRequests = 0

/** Production settings: no private networks, https only. */
let prod: TestApp
/** Private networks still refused, plain http allowed: the private check must not hide behind the https one. */
let httpAllowed: TestApp
/** The test environment's defaults (private networks and http allowed): only for redirects. */
let open: TestApp

/** Stand-in DNS answers: a fixed list, or a function of how many times the name was looked up. */
const answers = new Map<string, LookupAddress[] | ((n: number) => LookupAddress[])>()
const lookups = new Map<string, number>()
const v4 = (address: string): LookupAddress => ({ address, family: 4 })
const v6 = (address: string): LookupAddress => ({ address, family: 6 })

async function listenTrap(): Promise<Server> {
  const server = createServer((socket) => {
    trapConnections++
    socket.destroy()
  })
  server.on('error', () => {})
  // Dual stack: catches 127.0.0.1, ::1 and ::ffff:127.0.0.1 on one port; IPv4 only where there is no IPv6.
  for (const host of ['::', '127.0.0.1']) {
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false))
      server.listen(0, host, () => resolve(true))
    })
    if (ok) return server
  }
  throw new Error('the trap could not listen')
}

async function controlConnection(host: string) {
  await new Promise<void>((resolve) => {
    const socket = connect(trapPort, host)
    socket.on('error', () => resolve())
    socket.on('close', () => resolve())
  })
}

before(async () => {
  trap = await listenTrap()
  trapPort = (trap.address() as { port: number }).port
  // The trap works: a connection of our own is counted (then the count starts from 0).
  await controlConnection('127.0.0.1')
  assert.equal(trapConnections, 1, 'the trap counts a loopback connection')
  trapConnections = 0

  redirector = createHttpServer((req, res) => {
    redirectorRequests++
    req.resume()
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 302)
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to') ?? `http://127.0.0.1:${trapPort}/latest/meta-data/`
    res.writeHead(status, { location: to }).end()
  })
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve))
  redirectorPort = (redirector.address() as { port: number }).port

  const original = dns.lookup
  mock.method(dns, 'lookup', (name: string, options: unknown, callback: unknown) => {
    const [opts, cb] = typeof options === 'function' ? [{}, options] : [options as { all?: boolean }, callback]
    const answer = answers.get(name.toLowerCase())
    if (!answer) return (original as (...args: unknown[]) => void)(name, options, callback)
    const n = (lookups.get(name) ?? 0) + 1
    lookups.set(name, n)
    const list = typeof answer === 'function' ? answer(n) : answer
    const done = cb as (err: Error | null, address: string | LookupAddress[], family?: number) => void
    process.nextTick(() => ((opts as { all?: boolean }).all ? done(null, list) : done(null, list[0]!.address, list[0]!.family)))
  })
  syncBuiltinESMExports()

  const guarded = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_TIMEOUT_MS: '1000' }
  prod = await createTestApp({ clock, env: { ...guarded, WEBHOOK_ALLOW_HTTP: 'false' } })
  httpAllowed = await createTestApp({ clock, env: { ...guarded, WEBHOOK_ALLOW_HTTP: 'true' } })
  open = await createTestApp({ clock, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_TIMEOUT_MS: '1000' } })
})

after(async () => {
  mock.restoreAll()
  syncBuiltinESMExports()
  await Promise.all([prod?.close(), httpAllowed?.close(), open?.close()])
  await new Promise((resolve) => trap?.close(resolve))
  redirector?.closeAllConnections()
  await new Promise((resolve) => redirector?.close(resolve))
})

/** A partner of `t` with a back-office token and helpers to set its URL and send it a test event. */
async function partnerOf(t: TestApp, name: string) {
  const partner = await givenPartner(t.deps, name)
  const token = await givenAdminToken(t.app, t.deps, `${name.toLowerCase().replace(/\W+/g, '-')}@ssrf.test`, 'ADMIN')
  const admin = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, payload })
  return {
    partnerId: partner.partnerId,
    put: (url: string) => admin('PUT', `/partners/${partner.partnerId}/webhook`, { url }),
    storedUrl: async () => (await admin('GET', `/partners/${partner.partnerId}/webhook`)).json().data.url as string | null,
    /** Queues a webhook.test event, runs one dispatch round, and answers the event with its delivery attempts. */
    async send() {
      const queued = await admin('POST', `/partners/${partner.partnerId}/webhook/test`)
      assert.equal(queued.statusCode, 201, queued.body)
      await t.app.dispatcher.dispatchOnce()
      const view = await admin('GET', `/events/${queued.json().data.id}`)
      return view.json().data as { status: string; attempts: number; deliveries: { url: string; statusCode: number | null; error: string | null }[] }
    },
  }
}

/** Hosts (as written in a URL) that are private, loopback, link-local or unspecified, in every form the URL parser reads. */
const PRIVATE_HOSTS = [
  // 127.0.0.1 written every way WHATWG URL accepts: dotted, short, decimal, hex, octal, trailing dot.
  '127.0.0.1', '127.1', '127.0.1', '2130706433', '0x7f000001', '0x7f.1', '0x7F.0.0.1', '0177.0.0.1', '0177.1', '127.0.0.1.', '127.255.255.254',
  // unspecified: Linux connects 0.0.0.0 to the loopback.
  '0.0.0.0', '0', '0x0',
  // IPv6 loopback, unspecified, IPv4-mapped and IPv4-compatible loopback, NAT64 and 6to4 wrappings of it.
  '[::1]', '[0:0:0:0:0:0:0:1]', '[::]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:127.0.0.1]', '[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::1]',
  // cloud metadata and link-local.
  '169.254.169.254', '0xa9fea9fe', '2852039166', '[::ffff:169.254.169.254]', '169.254.0.1', '[fe80::1]', '[fe80::a9fe:a9fe]',
  // RFC 1918, carrier-grade NAT, unique local IPv6.
  '10.0.0.1', '10.255.255.254', '012.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.0.1', '192.168.1.1', '0xc0a80001', '100.64.0.1', '[fc00::1]', '[fd00::1]', '[fd12:3456:789a::1]', '[::ffff:10.0.0.1]',
  // loopback by name (RFC 6761): refused without asking DNS.
  'localhost', 'LOCALHOST', 'localhost.', 'api.localhost', 'a.b.localhost.',
]

/** URLs that must be refused for other reasons than the address: credentials, schemes. */
const OTHER_REFUSALS: [url: (port: number) => string, message: RegExp][] = [
  [(p) => `https://example.com@127.0.0.1:${p}/`, /must not contain credentials/],
  [(p) => `https://example.com:443@127.0.0.1:${p}/`, /must not contain credentials/],
  [(p) => `https://user:pass@partner.example:${p}/`, /must not contain credentials/],
  [(p) => `https://%40@127.0.0.1:${p}/`, /must not contain credentials/],
  [(p) => `https://127.0.0.1:${p}\\@partner.example/`, /private or loopback/],
  [(p) => `https://127.0.0.1:${p}#@partner.example/`, /private or loopback/],
  [(p) => `https://127.0.0.1:${p}?@partner.example/`, /private or loopback/],
  [() => 'file:///etc/passwd', /must use/],
  [(p) => `gopher://127.0.0.1:${p}/_SET%20x`, /must use/],
  [(p) => `ftp://127.0.0.1:${p}/`, /must use/],
  [(p) => `ws://127.0.0.1:${p}/`, /must use/],
  [() => 'javascript:alert(1)', /must use/],
  [() => 'data:text/plain,hello', /must use/],
  [() => '//127.0.0.1/hooks', /must be an absolute URL/],
  [() => '/hooks', /must be an absolute URL/],
]

describe('configuration refuses private targets', () => {
  test('every private, loopback, link-local or metadata address literal and localhost is 400 when set, and nothing is stored', async () => {
    for (const [t, schemes] of [[prod, ['https']], [httpAllowed, ['https', 'http']]] as const) {
      const p = await partnerOf(t, `Config ${schemes.join(' ')}`)
      for (const scheme of schemes) {
        for (const host of PRIVATE_HOSTS) {
          const url = `${scheme}://${host}:${trapPort}/hooks`
          const res = await p.put(url)
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
          assert.deepEqual(res.json().message, [PRIVATE_REFUSAL], url)
          assert.equal(res.json().statusCode, 400)
          // The default port too (no port in the URL).
          assert.equal((await p.put(`${scheme}://${host}/latest/meta-data/`)).statusCode, 400, host)
        }
      }
      assert.equal(await p.storedUrl(), null, 'nothing was stored')
    }
    assert.equal(trapConnections, 0)
  })

  test('userinfo tricks, other schemes and relative URLs are 400; plain http is 400 in production', async () => {
    for (const t of [prod, httpAllowed]) {
      const p = await partnerOf(t, `Tricks ${t === prod ? 'prod' : 'http'}`)
      for (const [make, message] of OTHER_REFUSALS) {
        const res = await p.put(make(trapPort))
        assert.equal(res.statusCode, 400, `${make(trapPort)}: ${res.body}`)
        assert.match(res.json().message[0], message, make(trapPort))
      }
      const http = await p.put('http://partner.example/hooks')
      assert.equal(http.statusCode, t === prod ? 400 : 200, http.body)
      if (t === prod) assert.deepEqual(http.json().message, ['url must use https'])
    }
    assert.equal(trapConnections, 0)
  })

  test('public names and addresses are still accepted', async () => {
    const p = await partnerOf(prod, 'Public')
    for (const url of ['https://partner.example/hooks', 'https://93.184.216.34/hooks', 'https://[2606:4700::1111]/x', 'https://hooks.partner.example:8443/in?x=1', 'https://localhost.partner.example/']) {
      const res = await p.put(url)
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
      assert.equal(await p.storedUrl(), url)
    }
  })
})

describe('delivery never connects to a private target', () => {
  test("the guard's address table: every private range refused, public IPv4 and IPv6 not", () => {
    for (const a of ['127.0.0.1', '127.9.9.9', '0.0.0.0', '10.1.2.3', '100.64.0.1', '169.254.169.254', '172.16.0.1', '172.31.9.9', '192.168.4.4', '192.0.0.8', '198.18.0.1', '224.0.0.1', '255.255.255.255',
      '::', '::1', '::ffff:127.0.0.1', '::ffff:8.8.8.8', '::7f00:1', 'fc00::1', 'fd00::1', 'fe80::1', 'ff02::1', '64:ff9b::7f00:1', '2002:7f00:1::1', 'not-an-address']) {
      assert.equal(isPrivateAddress(a), true, a)
    }
    // Node's BlockList matched every IPv4 address against the IPv4-mapped IPv6 rule: every partner on IPv4 was refused.
    for (const a of ['8.8.8.8', '93.184.216.34', '192.0.2.1', '1.1.1.1', '172.32.0.1', '100.128.0.1', '11.0.0.1', '2606:4700::1111', '2001:4860:4860::8888']) {
      assert.equal(isPrivateAddress(a), false, a)
    }
  })

  test('a private URL stored anyway (before the rule, or by hand) is refused when sent, before any connection', async () => {
    for (const [t, schemes] of [[prod, ['https']], [httpAllowed, ['https', 'http']]] as const) {
      const p = await partnerOf(t, `Stored ${schemes.join(' ')}`)
      assert.equal((await p.put('https://partner.example/hooks')).statusCode, 200, 'creates the signing secret')
      for (const scheme of schemes) {
        for (const host of PRIVATE_HOSTS) {
          const url = `${scheme}://${host}:${trapPort}/hooks`
          await setPartnerWebhook(t.deps.database.db, p.partnerId, { url })
          const event = await p.send()
          assert.equal(event.status, 'PENDING', url)
          assert.equal(event.deliveries.length, 1, url)
          const [attempt] = event.deliveries
          assert.equal(attempt!.statusCode, null, url)
          // The guard's refusal, not a failed connection (refused, unreachable, timed out).
          assert.match(attempt!.error ?? '', /private or loopback address/, url)
        }
      }
    }
    assert.equal(trapConnections, 0)
  })

  test('names resolving to private addresses pass configuration but are never connected to', async () => {
    answers.set('internal.rebind.test', [v4('10.0.0.5')])
    answers.set('metadata.rebind.test', [v4('169.254.169.254')])
    answers.set('loop.rebind.test', [v4('127.0.0.1'), v6('::1')])
    answers.set('loop6.rebind.test', [v6('::1')])
    answers.set('mapped.rebind.test', [v6('::ffff:127.0.0.1')])
    answers.set('zero.rebind.test', [v4('0.0.0.0')])
    answers.set('ula.rebind.test', [v6('fd00::1')])
    // One public and one private answer: the connection could go to either (happy eyeballs), so refused.
    answers.set('mixed.rebind.test', [v4('93.184.216.34'), v4('127.0.0.1')])
    const names = [...answers.keys()].filter((n) => n.endsWith('.rebind.test'))
    // The machine's own name, when its resolver maps it to a private address (as /etc/hosts often does).
    const own = await dns.promises.lookup(hostname(), { all: true }).catch(() => [])
    if (own.length > 0 && own.some((a) => isPrivateAddress(a.address)) && !answers.has(hostname().toLowerCase())) names.push(hostname())
    for (const t of [prod, httpAllowed]) {
      const p = await partnerOf(t, `Names ${t === prod ? 'prod' : 'http'}`)
      for (const name of names) {
        const url = `https://${name}:${trapPort}/hooks`
        assert.equal((await p.put(url)).statusCode, 200, `${url} is only resolved when sent`)
        const before = lookups.get(name) ?? 0
        const event = await p.send()
        const [attempt] = event.deliveries
        assert.equal(attempt!.statusCode, null, url)
        assert.match(attempt!.error ?? '', /resolves to a private or loopback address/, url)
        if (name.endsWith('.rebind.test')) assert.equal(lookups.get(name), before + 1, `${name}: one look-up, and the connection would use its answer`)
      }
    }
    assert.equal(trapConnections, 0)
  })

  test('DNS rebinding: a name accepted at configuration that answers public, then private, is never connected to', async () => {
    // Configuration does not resolve names (an answer then proves nothing later): the name is checked
    // on every delivery, on the very answer the connection uses. TTL-0 rebinding: public on odd
    // look-ups, the loopback on even ones. A sender that resolved once to check and again to connect
    // would be sent to the trap. 192.0.2.1 (TEST-NET-1) is public to the guard and answers nothing,
    // so those attempts fail on their own (unreachable, or the 1 s timeout).
    answers.set('flip.rebind.test', (n) => (n % 2 === 1 ? [v4('192.0.2.1')] : [v4('127.0.0.1'), v6('::1')]))
    const p = await partnerOf(prod, 'Rebinding')
    const url = `https://flip.rebind.test:${trapPort}/hooks`
    assert.equal((await p.put(url)).statusCode, 200, url)
    for (let round = 1; round <= 4; round++) {
      const event = await p.send()
      const [attempt] = event.deliveries
      assert.equal(lookups.get('flip.rebind.test'), round, 'one look-up a delivery')
      assert.equal(attempt!.statusCode, null)
      if (round % 2 === 0) assert.match(attempt!.error ?? '', /resolves to a private or loopback address/, `round ${round}`)
      else assert.doesNotMatch(attempt!.error ?? '', /private/, `round ${round}: the public answer is not refused`)
      assert.equal(trapConnections, 0, `round ${round}: ${attempt!.error}`)
    }
  })
})

describe('redirects are never followed', () => {
  test('301, 302, 303, 307 and 308 to the trap (by address or by name) are failed deliveries, even where private networks are allowed', async () => {
    const p = await partnerOf(open, 'Redirects')
    const targets = [`http://127.0.0.1:${trapPort}/latest/meta-data/`, `http://localhost:${trapPort}/`, `http://[::1]:${trapPort}/`, `https://127.0.0.1:${trapPort}/`]
    let sent = 0
    for (const status of [301, 302, 303, 307, 308]) {
      for (const to of targets) {
        const url = `http://127.0.0.1:${redirectorPort}/hooks?status=${status}&to=${encodeURIComponent(to)}`
        assert.equal((await p.put(url)).statusCode, 200, url)
        const event = await p.send()
        sent++
        assert.equal(event.status, 'PENDING', 'a redirect is not a delivery: retried later')
        assert.equal(event.deliveries[0]!.statusCode, status)
        assert.equal(event.deliveries[0]!.error, `HTTP ${status}`)
        assert.equal(redirectorRequests, sent, 'the redirector was reached once a delivery')
        assert.equal(trapConnections, 0, `${status} to ${to}`)
      }
    }
  })
})

describe('evidence imageUrls and paymentReturnUrl are never fetched (plan 5.1 API7)', () => {
  test("the plan's imageUrls list is 400 on a ticket (only the customer's own uploads are evidence), nothing stored, 0 connections", async () => {
    const shop = await givenShop(prod)
    const customer = await givenCustomer(prod.app, shop.partner)
    answers.set('hosts-file.rebind.test', [v4('127.0.0.1')])
    const redirectsBefore = redirectorRequests
    const urls = [
      `http://127.0.0.1:${trapPort}`,
      'http://169.254.169.254/latest/meta-data/',
      `http://[::1]:${trapPort}/x.png`,
      `http://2130706433:${trapPort}/x.png`,
      `http://0x7f.1:${trapPort}/x.png`,
      `http://[::ffff:127.0.0.1]:${trapPort}/x.png`,
      'file:///etc/passwd',
      `gopher://127.0.0.1:${trapPort}/_x`,
      `http://127.0.0.1:${redirectorPort}/x.png?status=302`,
      `http://hosts-file.rebind.test:${trapPort}/x.png`,
    ]
    const ticket = (imageUrls: string[]) =>
      prod.app.inject({ method: 'POST', url: '/api/v1/support/tickets', headers: customerHeaders(customer), payload: { topic: 'Damaged', detail: 'Torn pack', imageUrls } })
    for (const url of urls) {
      const res = await ticket([url])
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
      assert.equal(res.json().message, `imageUrls: ${url} is not an upload of this customer for support`)
    }
    // Beside a real upload of the customer's, a foreign URL still refuses the whole ticket.
    const own = await uploadedImage(prod, customer, 'support')
    assert.equal((await ticket([own, urls[1]!])).statusCode, 400)
    const list = await prod.app.inject({ method: 'GET', url: '/api/v1/support/tickets', headers: customerHeaders(customer) })
    assert.equal(list.json().meta.total, 0, 'no ticket was stored')
    assert.equal(lookups.get('hosts-file.rebind.test') ?? 0, 0, 'the name was not even resolved')
    assert.equal(redirectorRequests, redirectsBefore, 'the redirecting URL was not requested')
    assert.equal(trapConnections, 0)
  })

  test('paymentReturnUrl: javascript: and data: are 400; an origin the partner did not register is 400; an accepted one is only handed to the browser', async () => {
    const shop = await givenShop(prod)
    const customer = await givenCustomer(prod.app, shop.partner)
    const order = (paymentReturnUrl: string) =>
      placeOrder(prod, customer, { items: [{ productId: shop.ids.atta!, quantity: 1 }], shippingAddress: ADDRESS, paymentMode: 'PREPAID', paymentReturnUrl })
    const orders = async () => (await prod.app.inject({ method: 'GET', url: '/api/v1/orders', headers: customerHeaders(customer) })).json().meta.total as number
    for (const url of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', `file:///etc/passwd`, `gopher://127.0.0.1:${trapPort}/`]) {
      const res = await order(url)
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
      assert.deepEqual(res.json().message, ['paymentReturnUrl must be an absolute http or https URL'], url)
    }
    await setPartnerReturnOrigins(prod.deps.database.db, shop.partner.partnerId, ['https://shop.partner.example'])
    for (const url of ['https://evil.example/back', `http://127.0.0.1:${trapPort}/back`, 'https://shop.partner.example.evil.example/back', 'http://shop.partner.example/back']) {
      const res = await order(url)
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`)
      assert.equal(res.json().message, `paymentReturnUrl origin ${new URL(url).origin} is not registered for this partner`)
    }
    assert.equal(await orders(), 0, 'no order was created')
    // A partner with no registered origins may send any http(s) address, the trap's too: it is a
    // redirect for the customer's browser, and the server never requests it, not even once paid.
    await setPartnerReturnOrigins(prod.deps.database.db, shop.partner.partnerId, [])
    const res = await order(`http://127.0.0.1:${trapPort}/back`)
    assert.equal(res.statusCode, 201, res.body)
    assert.equal((await sandboxAction(prod, res.json().data.paymentClientAction, 'pay')).statusCode, 200)
    await prod.app.dispatcher.dispatchOnce()
    assert.equal(trapConnections, 0)
  })
})

test('0 connections to the trap over the whole file', async () => {
  // A last look, after one more dispatch round of each guarded app on anything still pending.
  await Promise.all([prod.app.dispatcher.dispatchOnce(), httpAllowed.app.dispatcher.dispatchOnce()])
  await controlConnection('127.0.0.1')
  assert.equal(trapConnections, 1, 'the trap still counts (the one connection is our own)')
})
