// The back office of partners and API keys (/admin/partners): create with the secret and first key
// shown once, list and search, view, update, deactivate, rotate the secret with an overlap, issue,
// list and revoke keys. Role checks of every route are in test/security/authorization-matrix.test.ts.
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenAdminToken, givenCustomer, randomPhone } from '../helpers/factories.ts'

const API = '/api/v1'
let t: TestApp
let admin: string
const clock = new ManualClock()

before(async () => {
  t = await createTestApp({ clock, env: { PARTNER_SECRET_OVERLAP_SECONDS: '3600' } })
  admin = await givenAdminToken(t.app, t.deps, `partners-${randomUUID()}@example.test`, 'ADMIN')
})
after(() => t?.close())

const asAdmin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `${API}${url}`, headers: { authorization: `Bearer ${admin}` }, ...(payload ? { payload } : {}) })

async function created(name = `Shop ${randomUUID()}`, extra: object = {}) {
  const res = await asAdmin('POST', '/admin/partners', { name, ...extra })
  assert.equal(res.statusCode, 201, res.body)
  return res.json().data as { partner: { id: string; name: string }; secret: string; apiKey: { id: string; apiKey: string; prefix: string; catalogId: string } }
}

const tokenExchange = (partnerId: string, secret: string) =>
  t.app.inject({ method: 'POST', url: `${API}/auth/customer-token`, headers: { 'x-partner-id': partnerId, 'x-partner-secret': secret }, payload: { phone: randomPhone() } })
const products = (apiKey: string) => t.app.inject({ method: 'GET', url: `${API}/products`, headers: { 'x-api-key': apiKey } })

describe('creating a partner', () => {
  test('answers its secret and first API key once; both work; the partner view never shows them again', async () => {
    const p = await created(undefined, { returnUrlOrigins: ['https://shop.example/path', 'https://shop.example'] })
    assert.match(p.secret, /^psk_/)
    assert.equal(p.apiKey.prefix, p.apiKey.apiKey.slice(0, 10))
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 200)
    assert.equal((await products(p.apiKey.apiKey)).statusCode, 200)
    const view = await asAdmin('GET', `/admin/partners/${p.partner.id}`)
    assert.equal(view.statusCode, 200)
    assert.ok(!view.body.includes(p.secret) && !view.body.includes(p.apiKey.apiKey))
    const data = view.json().data
    assert.deepEqual(data.returnUrlOrigins, ['https://shop.example'])
    assert.equal(data.activeApiKeys, 1)
    assert.equal(data.apiKeys[0].id, p.apiKey.id)
    assert.equal(data.previousSecretExpiresAt, null)
  })

  test('a name already used, in any case, is 409; unknown fields and a blank name 400; an unknown catalog 404', async () => {
    const p = await created()
    const same = await asAdmin('POST', '/admin/partners', { name: p.partner.name.toUpperCase() })
    assert.equal(same.statusCode, 409)
    assert.equal(same.json().message, `A partner named ${p.partner.name} already exists`)
    const unknown = await asAdmin('POST', '/admin/partners', { name: `X ${randomUUID()}`, secret: 'mine' })
    assert.equal(unknown.statusCode, 400)
    assert.deepEqual(unknown.json().message, ['property secret should not exist'])
    assert.equal((await asAdmin('POST', '/admin/partners', { name: '   ' })).statusCode, 400)
    assert.equal((await asAdmin('POST', '/admin/partners', { name: `Y ${randomUUID()}`, catalogId: 'cat_missing' })).statusCode, 404)
    assert.equal((await asAdmin('POST', '/admin/partners', { name: `Z ${randomUUID()}`, returnUrlOrigins: ['ftp://x'] })).statusCode, 400)
  })
})

describe('listing and updating partners', () => {
  test('search by partial name or by ID, filter by active, page', async () => {
    const tag = randomUUID().slice(0, 8)
    const a = await created(`Alpha ${tag}`)
    const b = await created(`Beta ${tag}`)
    const byName = await asAdmin('GET', `/admin/partners?search=${tag}&limit=1`)
    assert.equal(byName.statusCode, 200)
    assert.deepEqual(byName.json().meta, { total: 2, page: 1, limit: 1, totalPages: 2 })
    assert.equal(byName.json().data[0].id, b.partner.id, 'newest first')
    const byId = await asAdmin('GET', `/admin/partners?search=${a.partner.id}`)
    assert.deepEqual(byId.json().data.map((p: { id: string }) => p.id), [a.partner.id])
    await asAdmin('POST', `/admin/partners/${a.partner.id}/deactivate`)
    const inactive = await asAdmin('GET', `/admin/partners?search=${tag}&isActive=false`)
    assert.deepEqual(inactive.json().data.map((p: { id: string }) => p.id), [a.partner.id])
    assert.equal((await asAdmin('GET', `/admin/partners?search=${tag}&role=x`)).statusCode, 400)
  })

  test('rename (409 when taken), set return origins; an empty change is 400; another ID 404', async () => {
    const a = await created()
    const b = await created()
    const name = `Renamed ${randomUUID()}`
    const renamed = await asAdmin('PATCH', `/admin/partners/${a.partner.id}`, { name, returnUrlOrigins: ['https://a.example'] })
    assert.equal(renamed.statusCode, 200)
    assert.equal(renamed.json().data.name, name)
    assert.deepEqual(renamed.json().data.returnUrlOrigins, ['https://a.example'])
    assert.equal((await asAdmin('PATCH', `/admin/partners/${b.partner.id}`, { name: name.toLowerCase() })).statusCode, 409)
    assert.equal((await asAdmin('PATCH', `/admin/partners/${a.partner.id}`, {})).statusCode, 400)
    assert.equal((await asAdmin('PATCH', '/admin/partners/prt_missing', { isActive: true })).statusCode, 404)
  })

  test('a deactivated partner: its keys, secret and customer tokens stop working on the next request; reactivated, they work again', async () => {
    const p = await created()
    const fixture = { partnerId: p.partner.id, secret: p.secret, apiKey: p.apiKey.apiKey, apiKeyId: p.apiKey.id, catalogId: p.apiKey.catalogId }
    const customer = await givenCustomer(t.app, fixture)
    const me = () => t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: customerHeaders(customer) })
    assert.equal((await products(p.apiKey.apiKey)).statusCode, 200, 'the key is now remembered by the authenticator')
    assert.equal((await me()).statusCode, 200)

    const off = await asAdmin('POST', `/admin/partners/${p.partner.id}/deactivate`)
    assert.equal(off.statusCode, 200)
    assert.equal(off.json().data.isActive, false)
    assert.equal((await products(p.apiKey.apiKey)).statusCode, 401)
    assert.equal((await me()).statusCode, 401)
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 401)

    assert.equal((await asAdmin('PATCH', `/admin/partners/${p.partner.id}`, { isActive: true })).statusCode, 200)
    assert.equal((await products(p.apiKey.apiKey)).statusCode, 200)
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 200)
  })
})

describe('rotating the partner secret', () => {
  test('the new secret works at once; the old one until the overlap ends, shown with its expiry; then 401', async () => {
    const p = await created()
    const rotated = await asAdmin('POST', `/admin/partners/${p.partner.id}/rotate-secret`)
    assert.equal(rotated.statusCode, 200)
    const { secret, previousSecretExpiresAt } = rotated.json().data
    assert.notEqual(secret, p.secret)
    assert.equal(new Date(previousSecretExpiresAt).getTime(), clock.now().getTime() + 3600_000)
    assert.equal((await asAdmin('GET', `/admin/partners/${p.partner.id}`)).json().data.previousSecretExpiresAt, previousSecretExpiresAt)
    assert.equal((await tokenExchange(p.partner.id, secret)).statusCode, 200)
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 200, 'inside the overlap')

    clock.advance(3600_000 + 1)
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 401, 'after the overlap')
    assert.equal((await tokenExchange(p.partner.id, secret)).statusCode, 200)
    assert.equal((await asAdmin('GET', `/admin/partners/${p.partner.id}`)).json().data.previousSecretExpiresAt, null)
  })

  test('a second rotation inside the overlap ends the oldest secret at once', async () => {
    const p = await created()
    const first = (await asAdmin('POST', `/admin/partners/${p.partner.id}/rotate-secret`)).json().data.secret
    const second = (await asAdmin('POST', `/admin/partners/${p.partner.id}/rotate-secret`)).json().data.secret
    assert.equal((await tokenExchange(p.partner.id, p.secret)).statusCode, 401)
    assert.equal((await tokenExchange(p.partner.id, first)).statusCode, 200)
    assert.equal((await tokenExchange(p.partner.id, second)).statusCode, 200)
  })
})

describe('API keys', () => {
  test('issue one bound to a catalog (shown once), list with prefix and last use, revoke; revoking again is 409', async () => {
    const p = await created()
    const issued = await asAdmin('POST', `/admin/partners/${p.partner.id}/api-keys`, { name: 'mobile app' })
    assert.equal(issued.statusCode, 201)
    const key = issued.json().data
    assert.equal(key.catalogId, p.apiKey.catalogId)
    assert.equal(key.name, 'mobile app')
    assert.equal(key.lastUsedAt, null)
    assert.equal((await products(key.apiKey)).statusCode, 200)
    await t.app.guards.flushKeyUsage()
    const listed = await asAdmin('GET', `/admin/partners/${p.partner.id}/api-keys`)
    assert.ok(!listed.body.includes(key.apiKey))
    const mine = listed.json().data.find((k: { id: string }) => k.id === key.id)
    assert.equal(mine.prefix, key.apiKey.slice(0, 10))
    assert.equal(mine.lastUsedAt, clock.now().toISOString())
    assert.equal(listed.json().data.find((k: { id: string }) => k.id === p.apiKey.id).lastUsedAt, null, 'the first key was not used')

    const revoked = await asAdmin('POST', `/admin/partners/${p.partner.id}/api-keys/${key.id}/revoke`)
    assert.equal(revoked.statusCode, 200)
    assert.ok(revoked.json().data.revokedAt)
    assert.equal((await products(key.apiKey)).statusCode, 401)
    const again = await asAdmin('POST', `/admin/partners/${p.partner.id}/api-keys/${key.id}/revoke`)
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().message, 'API key is already revoked')
  })

  test("another partner's key through this partner's path is 404; an unknown catalog 404", async () => {
    const a = await created()
    const b = await created()
    assert.equal((await asAdmin('POST', `/admin/partners/${a.partner.id}/api-keys/${b.apiKey.id}/revoke`)).statusCode, 404)
    assert.equal((await products(b.apiKey.apiKey)).statusCode, 200)
    assert.equal((await asAdmin('POST', `/admin/partners/${a.partner.id}/api-keys`, { catalogId: 'cat_missing' })).statusCode, 404)
  })
})
