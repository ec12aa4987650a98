import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { customerHeaders, givenCustomer, givenPartner, type PartnerFixture, randomPhone } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture
let otherPartner: PartnerFixture
before(async () => {
  t = await createTestApp()
  partner = await givenPartner(t.deps, 'Partner A')
  otherPartner = await givenPartner(t.deps, 'Partner B')
})
after(() => t.close())

const issue = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/customer-token', headers, payload })
const creds = (p: PartnerFixture) => ({ 'x-partner-id': p.partnerId, 'x-partner-secret': p.secret })

describe('POST /auth/customer-token', () => {
  test('a new customer records one customer.created event with the customer as the API answers it; the next token records none', async () => {
    const phone = randomPhone()
    const first = await issue(creds(partner), { phone, name: 'Ravi' })
    const again = await issue(creds(partner), { phone })
    assert.equal(again.statusCode, 200)
    const user = first.json().data.user
    const events = await t.deps.database.db.query.outboxEvents.findMany({ where: (e, { and, eq }) => and(eq(e.subjectId, user.id), eq(e.type, 'customer.created')) })
    assert.equal(events.length, 1)
    assert.equal(events[0]!.partnerId, partner.partnerId)
    assert.deepEqual(events[0]!.data, { customerId: user.id, customer: user })
  })

  test('when the partner credentials are valid, then it creates the customer and answers a token pair', async () => {
    const res = await issue(creds(partner), { phone: '+91 98765 43210', name: 'Asha Rao', email: 'Asha@Example.com' })
    assert.equal(res.statusCode, 200)
    const body = res.json()
    assert.equal(body.statusCode, 200)
    assert.equal(body.data.tokenType, 'Bearer')
    assert.equal(body.data.expiresIn, 900)
    assert.ok(body.data.accessToken.split('.').length === 3)
    assert.match(body.data.refreshToken, /^rt_/)
    assert.deepEqual({ ...body.data.user, id: undefined }, {
      id: undefined,
      partnerId: partner.partnerId,
      phone: '9876543210',
      name: 'Asha Rao',
      email: 'asha@example.com',
      role: 'USER',
    })
    assert.match(body.data.user.id, /^usr_/)
  })

  test('when the same phone comes again, then it is the same customer and the stored name is kept', async () => {
    const phone = randomPhone()
    const first = (await issue(creds(partner), { phone, name: 'First Name' })).json().data.user
    const second = (await issue(creds(partner), { phone: `0${phone}`, name: 'Other Name' })).json().data.user
    assert.equal(second.id, first.id)
    assert.equal(second.name, 'First Name')
  })

  test('when two partners send the same phone, then they get two different customers', async () => {
    const phone = randomPhone()
    const a = (await issue(creds(partner), { phone })).json().data.user
    const b = (await issue(creds(otherPartner), { phone })).json().data.user
    assert.notEqual(a.id, b.id)
    assert.equal(a.name, '')
    assert.equal(a.email, '')
  })

  test('when x-partner-id is missing, then 400 with the exact message', async () => {
    const res = await issue({ 'x-partner-secret': partner.secret }, { phone: randomPhone() })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'x-partner-id header is required')
  })

  test('when the secret is wrong, missing or of another partner, then 401 and nothing is created', async () => {
    const phone = randomPhone()
    for (const headers of <Record<string, string>[]>[
      { 'x-partner-id': partner.partnerId, 'x-partner-secret': 'psk_wrong' },
      { 'x-partner-id': partner.partnerId },
      { 'x-partner-id': partner.partnerId, 'x-partner-secret': otherPartner.secret },
      { 'x-partner-id': 'prt_unknown', 'x-partner-secret': partner.secret },
    ]) {
      const res = await issue(headers, { phone })
      assert.equal(res.statusCode, 401, JSON.stringify(headers))
      assert.equal(res.json().statusCode, 401)
    }
    const users = await t.deps.database.db.query.users.findMany()
    assert.ok(!users.some((u) => u.phone === phone))
  })

  test('when the phone is not a 10-digit Indian mobile, then 400', async () => {
    for (const phone of ['5876543210', '98765', '+1 9876543210', '98765432101']) {
      const res = await issue(creds(partner), { phone })
      assert.equal(res.statusCode, 400, phone)
      assert.deepEqual(res.json().message, ['phone must be a valid Indian mobile number'])
    }
  })
})

describe('POST /auth/refresh and /auth/logout', () => {
  const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken } })

  test('when a refresh token is used, then it rotates the pair and the old token stops working', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await refresh(customer.refreshToken)
    assert.equal(res.statusCode, 200)
    const pair = res.json().data
    assert.notEqual(pair.refreshToken, customer.refreshToken)
    assert.equal(pair.user.id, customer.userId)
    const next = await refresh(pair.refreshToken)
    assert.equal(next.statusCode, 200)
  })

  test('when a used refresh token is presented again, then 401 and the whole family is revoked', async () => {
    const customer = await givenCustomer(t.app, partner)
    const rotated = (await refresh(customer.refreshToken)).json().data
    const reuse = await refresh(customer.refreshToken)
    assert.equal(reuse.statusCode, 401)
    // The legitimate newer token dies with its family.
    assert.equal((await refresh(rotated.refreshToken)).statusCode, 401)
  })

  test('when two refreshes of one token race, then exactly one wins', async () => {
    const customer = await givenCustomer(t.app, partner)
    const results = await Promise.all([refresh(customer.refreshToken), refresh(customer.refreshToken)])
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401])
  })

  test('when the refresh token is unknown, then 401', async () => {
    const res = await refresh('rt_not-a-real-token')
    assert.equal(res.statusCode, 401)
    assert.equal(res.json().message, 'Invalid or expired refresh token')
  })

  test('when a customer logs out, then the refresh token is revoked and the access token (remembered live a moment ago) refused at once; logging out again still succeeds', async () => {
    const customer = await givenCustomer(t.app, partner)
    const me = () => t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: customerHeaders(customer) })
    assert.equal((await me()).statusCode, 200)
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: customer.refreshToken } })
    assert.equal(out.statusCode, 200)
    assert.deepEqual(out.json().data, { loggedOut: true })
    assert.equal((await me()).statusCode, 401)
    assert.equal((await refresh(customer.refreshToken)).statusCode, 401)
    const again = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', payload: { refreshToken: customer.refreshToken } })
    assert.equal(again.statusCode, 200)
  })

  test('when the body is wrong, then 400 with the wording', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refreshToken: '', extra: 1 } })
    assert.equal(res.statusCode, 400)
    assert.deepEqual([...res.json().message].sort(), ['property extra should not exist', 'refreshToken should not be empty'])
  })
})
