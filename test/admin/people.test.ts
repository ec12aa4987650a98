// People in the back office (issue #39): ADMINs invite accounts (a temporary password shown once),
// change their role, deactivate them (their sessions end at once) and reset their password; the
// service never loses its last active ADMIN, even under concurrent changes; everyone sets their own
// password. Real HTTP over the real app and database.
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
  await createAdmin(t.deps.database.db, { email: 'owner@people.test', password: 'the-owner-password', role: 'ADMIN' })
})
after(() => t.close())

const login = async (email: string, password: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email, password } })
  assert.equal(res.statusCode, 200, res.body)
  return res.json().data as { accessToken: string; admin: { id: string; mustChangePassword: boolean } }
}
const as = (token: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) })

describe('people', () => {
  test('an ADMIN invites a SUPPORT agent, who signs in with the temporary password shown once and sets their own; the list shows both, never a password', async () => {
    const owner = (await login('owner@people.test', 'the-owner-password')).accessToken
    const invited = await as(owner, 'POST', '/admins', { email: 'Asha@People.test', role: 'SUPPORT' })
    assert.equal(invited.statusCode, 201, invited.body)
    const { admin, temporaryPassword } = invited.json().data
    assert.deepEqual([admin.email, admin.role, admin.isActive, admin.mustChangePassword], ['asha@people.test', 'SUPPORT', true, true])
    assert.match(temporaryPassword, /^[A-Za-z0-9_-]{22}$/)
    assert.equal((await as(owner, 'POST', '/admins', { email: 'asha@people.test', role: 'CATALOG' })).statusCode, 409, 'one account per e-mail')

    const session = await login('asha@people.test', temporaryPassword)
    assert.equal(session.admin.mustChangePassword, true)
    assert.equal((await as(session.accessToken, 'GET', '/orders?limit=1')).statusCode, 200)
    assert.equal((await as(session.accessToken, 'GET', '/admins')).statusCode, 403, 'SUPPORT does not manage people')
    const short = await as(session.accessToken, 'PUT', '/me/password', { currentPassword: temporaryPassword, newPassword: 'short' })
    assert.equal(short.statusCode, 400)
    const wrong = await as(session.accessToken, 'PUT', '/me/password', { currentPassword: 'not-it-at-all', newPassword: 'asha-chose-this-one' })
    assert.deepEqual(wrong.json().message, ['currentPassword: is not your password'])
    const changed = await as(session.accessToken, 'PUT', '/me/password', { currentPassword: temporaryPassword, newPassword: 'asha-chose-this-one' })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(changed.json().data.admin.mustChangePassword, false)
    assert.equal((await as(session.accessToken, 'GET', '/orders?limit=1')).statusCode, 401, 'the old session ended with the change')
    assert.equal((await as(changed.json().data.accessToken, 'GET', '/orders?limit=1')).statusCode, 200, 'the new token works')
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'asha@people.test', password: temporaryPassword } })).statusCode, 401)

    const people = (await as(owner, 'GET', '/admins')).json().data as Record<string, unknown>[]
    assert.deepEqual(people.map((p) => p.email), ['owner@people.test', 'asha@people.test'])
    assert.ok(people.every((p) => !('passwordHash' in p) && !('temporaryPassword' in p)))
  })

  test("a role change applies at the person's next request; deactivation ends their session at once; a reset gives a new temporary password and ends it too", async () => {
    const owner = (await login('owner@people.test', 'the-owner-password')).accessToken
    const { admin, temporaryPassword } = (await as(owner, 'POST', '/admins', { email: 'ravi@people.test', role: 'CATALOG' })).json().data
    const ravi = (await login('ravi@people.test', temporaryPassword)).accessToken
    assert.equal((await as(ravi, 'GET', '/orders?limit=1')).statusCode, 403)
    assert.equal((await as(owner, 'PATCH', `/admins/${admin.id}`, { role: 'SUPPORT' })).json().data.role, 'SUPPORT')
    assert.equal((await as(ravi, 'GET', '/orders?limit=1')).statusCode, 200, 'the stored role wins over the token')

    const off = await as(owner, 'PATCH', `/admins/${admin.id}`, { isActive: false })
    assert.equal(off.json().data.isActive, false)
    assert.equal((await as(ravi, 'GET', '/orders?limit=1')).statusCode, 401, 'signed out at once')
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email: 'ravi@people.test', password: temporaryPassword } })).statusCode, 401)
    await as(owner, 'PATCH', `/admins/${admin.id}`, { isActive: true })
    assert.equal((await as(ravi, 'GET', '/orders?limit=1')).statusCode, 401, 'reactivated: the old session stays ended')

    const fresh = (await login('ravi@people.test', temporaryPassword)).accessToken
    const reset = await as(owner, 'POST', `/admins/${admin.id}/reset-password`)
    assert.equal(reset.statusCode, 200)
    assert.notEqual(reset.json().data.temporaryPassword, temporaryPassword)
    assert.equal((await as(fresh, 'GET', '/orders?limit=1')).statusCode, 401, 'a reset ends the session')
    assert.equal((await login('ravi@people.test', reset.json().data.temporaryPassword)).admin.mustChangePassword, true)
    assert.equal((await as(owner, 'POST', '/admins/adm_nobody/reset-password')).statusCode, 404)
    assert.equal((await as(owner, 'PATCH', `/admins/${admin.id}`, {})).statusCode, 400, 'a change names something')
  })

  test('the last active ADMIN cannot be demoted or deactivated, even by two changes at once; nor can an ADMIN deactivate themselves', async () => {
    const owner = await login('owner@people.test', 'the-owner-password')
    const second = (await as(owner.accessToken, 'POST', '/admins', { email: 'second@people.test', role: 'ADMIN' })).json().data.admin
    const self = await as(owner.accessToken, 'PATCH', `/admins/${owner.admin.id}`, { isActive: false })
    assert.equal(self.statusCode, 409)
    assert.equal(self.json().message, 'You cannot deactivate your own account: ask another ADMIN')
    // Two ADMINs, each demoted at once: one change wins, the other finds the last ADMIN.
    const both = await Promise.all([as(owner.accessToken, 'PATCH', `/admins/${second.id}`, { role: 'SUPPORT' }), as(owner.accessToken, 'PATCH', `/admins/${owner.admin.id}`, { role: 'CATALOG' })])
    assert.deepEqual(both.map((r) => r.statusCode).sort(), [200, 409])
    assert.match(both.find((r) => r.statusCode === 409)!.json().message, /is the last active ADMIN: make another account ADMIN first/)
    const active = await t.deps.database.db.query.adminUsers.findMany({ where: (a, { and, eq }) => and(eq(a.role, 'ADMIN'), eq(a.isActive, true)) })
    assert.equal(active.length, 1, 'exactly one active ADMIN remains')
  })
})
