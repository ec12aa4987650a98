import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { type CustomerFixture, customerHeaders, givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'

let t: TestApp
let partner: PartnerFixture
let otherPartner: PartnerFixture
before(async () => {
  t = await createTestApp()
  partner = await givenPartner(t.deps, 'Partner A')
  otherPartner = await givenPartner(t.deps, 'Partner B')
})
after(() => t.close())

const home = { label: 'Home', line1: '12 MG Road', line2: 'Near City Mall', city: 'Bengaluru', state: 'Karnataka', pincode: '560001' }

function call(customer: CustomerFixture, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url: `/api/v1${url}`, headers: customerHeaders(customer), ...(payload ? { payload } : {}) })
}

describe('GET/PATCH /users/me', () => {
  test('when the customer reads the profile, then it is the User with addresses', async () => {
    const customer = await givenCustomer(t.app, partner, { name: 'Asha Rao', email: 'asha@example.com' })
    await call(customer, 'POST', '/users/me/addresses', home)
    const res = await call(customer, 'GET', '/users/me')
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.deepEqual(Object.keys(data).sort(), ['addresses', 'email', 'id', 'name', 'partnerId', 'phone', 'role'])
    assert.equal(data.id, customer.userId)
    assert.equal(data.partnerId, partner.partnerId)
    assert.equal(data.role, 'USER')
    assert.equal(data.addresses.length, 1)
    assert.deepEqual(Object.keys(data.addresses[0]).sort(), ['city', 'id', 'isDefault', 'label', 'line1', 'line2', 'pincode', 'state'])
  })

  test('when name and email are patched, then the User without addresses comes back, trimmed', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await call(customer, 'PATCH', '/users/me', { name: '  Ravi Kumar ', email: 'Ravi@Example.com' })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.equal(data.name, 'Ravi Kumar')
    assert.equal(data.email, 'ravi@example.com')
    assert.equal(data.addresses, undefined)
    assert.equal((await call(customer, 'GET', '/users/me')).json().data.name, 'Ravi Kumar')
  })

  test('when the email is invalid, the name blank or a field unknown, then 400 with the wording and nothing changes', async () => {
    const customer = await givenCustomer(t.app, partner, { name: 'Keep Me' })
    const bad = await call(customer, 'PATCH', '/users/me', { email: 'nope', role: 'ADMIN' })
    assert.equal(bad.statusCode, 400)
    assert.deepEqual([...bad.json().message].sort(), ['email must be an email', 'property role should not exist'])
    const blank = await call(customer, 'PATCH', '/users/me', { name: '   ' })
    assert.equal(blank.statusCode, 400)
    assert.equal(blank.json().message, 'name should not be empty')
    const empty = await call(customer, 'PATCH', '/users/me', { name: '' })
    assert.deepEqual(empty.json().message, ['name should not be empty'])
    assert.equal((await call(customer, 'GET', '/users/me')).json().data.name, 'Keep Me')
  })

  test('when x-partner-id is absent, then the token alone works; when it is another partner, then 401', async () => {
    const customer = await givenCustomer(t.app, partner)
    const alone = await t.app.inject({ method: 'GET', url: '/api/v1/users/me', headers: { authorization: `Bearer ${customer.accessToken}` } })
    assert.equal(alone.statusCode, 200)
    const foreign = await t.app.inject({
      method: 'GET',
      url: '/api/v1/users/me',
      headers: { authorization: `Bearer ${customer.accessToken}`, 'x-partner-id': otherPartner.partnerId },
    })
    assert.equal(foreign.statusCode, 401)
    assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/users/me' })).statusCode, 401)
  })
})

describe('addresses', () => {
  test('when the first address is created, then it is the default and answers 201 without userId', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await call(customer, 'POST', '/users/me/addresses', { ...home, isDefault: false })
    assert.equal(res.statusCode, 201)
    assert.equal(res.json().statusCode, 201)
    const data = res.json().data
    assert.equal(data.isDefault, true)
    assert.equal(data.userId, undefined)
    assert.deepEqual({ ...data, id: undefined }, { id: undefined, ...home, isDefault: true })
  })

  test('when the list is read, then entries carry userId, default first', async () => {
    const customer = await givenCustomer(t.app, partner)
    await call(customer, 'POST', '/users/me/addresses', home)
    await call(customer, 'POST', '/users/me/addresses', { ...home, label: 'Work', isDefault: true })
    const list = (await call(customer, 'GET', '/users/me/addresses')).json().data
    assert.equal(list.length, 2)
    assert.ok(list.every((a: { userId: string }) => a.userId === customer.userId))
    assert.equal(list[0].label, 'Work')
    assert.deepEqual(list.map((a: { isDefault: boolean }) => a.isDefault), [true, false])
  })

  test('when required fields are missing or the pincode is short, then 400 with each message and nothing saved', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await call(customer, 'POST', '/users/me/addresses', { line2: 'x', pincode: '5600', extra: 1 })
    assert.equal(res.statusCode, 400)
    const messages = res.json().message
    for (const m of [
      'label should not be empty',
      'line1 should not be empty',
      'city should not be empty',
      'state should not be empty',
      'pincode must be longer than or equal to 6 characters',
      'property extra should not exist',
    ]) {
      assert.ok(messages.includes(m), `${m} in ${JSON.stringify(messages)}`)
    }
    assert.equal((await call(customer, 'GET', '/users/me/addresses')).json().data.length, 0)
  })

  test('when the pincode is 6 characters but not an Indian PIN, then its own message', async () => {
    const customer = await givenCustomer(t.app, partner)
    for (const pincode of ['012345', '56000A', '5600 1']) {
      const res = await call(customer, 'POST', '/users/me/addresses', { ...home, pincode })
      assert.equal(res.statusCode, 400, pincode)
      assert.deepEqual(res.json().message, ['pincode must be a 6-digit Indian PIN code'])
    }
    const long = await call(customer, 'POST', '/users/me/addresses', { ...home, pincode: '5600011' })
    assert.ok(long.json().message.includes('pincode must be shorter than or equal to 6 characters'))
  })

  test('when isDefault has the wrong type, then it is not coerced', async () => {
    const customer = await givenCustomer(t.app, partner)
    const res = await call(customer, 'POST', '/users/me/addresses', { ...home, isDefault: 'true' })
    assert.deepEqual(res.json().message, ['isDefault must be a boolean value'])
  })

  test('when an address is patched with a subset, then only those fields change', async () => {
    const customer = await givenCustomer(t.app, partner)
    const created = (await call(customer, 'POST', '/users/me/addresses', home)).json().data
    const res = await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { city: 'Mysuru', pincode: '570001' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json().data, { ...created, city: 'Mysuru', pincode: '570001' })
    const bad = await call(customer, 'PATCH', `/users/me/addresses/${created.id}`, { pincode: '570', userId: 'x' })
    assert.equal(bad.statusCode, 400)
    assert.ok(bad.json().message.includes('pincode must be longer than or equal to 6 characters'))
    assert.ok(bad.json().message.includes('property userId should not exist'))
  })

  test('default invariant: making another default clears the old one; unsetting passes it on; deleting promotes the most recent', async () => {
    const customer = await givenCustomer(t.app, partner)
    const a = (await call(customer, 'POST', '/users/me/addresses', { ...home, label: 'A' })).json().data
    const b = (await call(customer, 'POST', '/users/me/addresses', { ...home, label: 'B' })).json().data
    const c = (await call(customer, 'POST', '/users/me/addresses', { ...home, label: 'C' })).json().data
    const defaults = async () =>
      (await call(customer, 'GET', '/users/me/addresses')).json().data.filter((x: { isDefault: boolean }) => x.isDefault).map((x: { label: string }) => x.label)
    assert.deepEqual(await defaults(), ['A'])
    await call(customer, 'PATCH', `/users/me/addresses/${b.id}`, { isDefault: true })
    assert.deepEqual(await defaults(), ['B'])
    await call(customer, 'PATCH', `/users/me/addresses/${b.id}`, { isDefault: false })
    assert.deepEqual(await defaults(), ['C'], 'the most recent other address takes the default')
    const deleted = await call(customer, 'DELETE', `/users/me/addresses/${c.id}`)
    assert.equal(deleted.statusCode, 200)
    assert.deepEqual(deleted.json().data, { ...c, isDefault: true })
    assert.deepEqual(await defaults(), ['B'], 'deleting the default promotes the most recent remaining')
    await call(customer, 'DELETE', `/users/me/addresses/${b.id}`)
    assert.deepEqual(await defaults(), ['A'])
    const only = await call(customer, 'PATCH', `/users/me/addresses/${a.id}`, { isDefault: false })
    assert.equal(only.json().data.isDefault, true, 'the only address stays the default')
    await call(customer, 'DELETE', `/users/me/addresses/${a.id}`)
    assert.deepEqual(await defaults(), [])
  })

  test('when "make default" calls race, then exactly one address is the default', async () => {
    const customer = await givenCustomer(t.app, partner)
    const ids = []
    for (const label of ['A', 'B', 'C', 'D', 'E']) ids.push((await call(customer, 'POST', '/users/me/addresses', { ...home, label })).json().data.id)
    const results = await Promise.all(ids.map((id) => call(customer, 'PATCH', `/users/me/addresses/${id}`, { isDefault: true })))
    assert.ok(results.every((r) => r.statusCode === 200))
    const list = (await call(customer, 'GET', '/users/me/addresses')).json().data
    assert.equal(list.filter((x: { isDefault: boolean }) => x.isDefault).length, 1)
  })

  test('when creates race, then exactly one default as well', async () => {
    const customer = await givenCustomer(t.app, partner)
    const results = await Promise.all(['A', 'B', 'C', 'D'].map((label) => call(customer, 'POST', '/users/me/addresses', { ...home, label, isDefault: true })))
    assert.ok(results.every((r) => r.statusCode === 201))
    const list = (await call(customer, 'GET', '/users/me/addresses')).json().data
    assert.equal(list.length, 4)
    assert.equal(list.filter((x: { isDefault: boolean }) => x.isDefault).length, 1)
  })

  test('when a customer has 20 addresses, then the 21st is refused with a clear 400', async () => {
    const customer = await givenCustomer(t.app, partner)
    for (let i = 0; i < 20; i++) assert.equal((await call(customer, 'POST', '/users/me/addresses', { ...home, label: `L${i}` })).statusCode, 201)
    const res = await call(customer, 'POST', '/users/me/addresses', home)
    assert.equal(res.statusCode, 400)
    assert.match(res.json().message, /at most 20 addresses/)
  })

  test("another customer's address answers 404 on PATCH and DELETE, in the same and in another partner", async () => {
    const owner = await givenCustomer(t.app, partner)
    const address = (await call(owner, 'POST', '/users/me/addresses', home)).json().data
    const sameP = await givenCustomer(t.app, partner)
    const otherP = await givenCustomer(t.app, otherPartner)
    for (const intruder of [sameP, otherP]) {
      const patch = await call(intruder, 'PATCH', `/users/me/addresses/${address.id}`, { city: 'Hacked' })
      assert.equal(patch.statusCode, 404)
      assert.equal(patch.json().message, 'Address not found')
      assert.equal((await call(intruder, 'DELETE', `/users/me/addresses/${address.id}`)).statusCode, 404)
    }
    assert.equal((await call(owner, 'GET', '/users/me/addresses')).json().data[0].city, 'Bengaluru')
    assert.equal((await call(owner, 'DELETE', '/users/me/addresses/adr_unknown')).statusCode, 404)
  })
})
