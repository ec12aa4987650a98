import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { createAdmin } from '../../src/modules/admins/index.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
before(async () => {
  t = await createTestApp()
  await createAdmin(t.deps.database.db, { email: 'Ops@Example.com', password: 'a-good-password', role: 'SUPPORT' })
})
after(() => t.close())

const login = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload })

describe('POST /admin/auth/login', () => {
  test('when the email and password match, then it answers a bearer token and the admin', async () => {
    const res = await login({ email: 'ops@example.com', password: 'a-good-password' })
    assert.equal(res.statusCode, 200)
    const data = res.json().data
    assert.equal(data.tokenType, 'Bearer')
    assert.equal(data.expiresIn, 8 * 3600)
    assert.deepEqual({ ...data.admin, id: undefined }, { id: undefined, email: 'ops@example.com', role: 'SUPPORT' })
    assert.equal(data.admin.passwordHash, undefined)
  })

  test('when the password is wrong or the email unknown, then the same 401', async () => {
    const wrong = await login({ email: 'ops@example.com', password: 'nope-nope' })
    const unknown = await login({ email: 'nobody@example.com', password: 'a-good-password' })
    assert.equal(wrong.statusCode, 401)
    assert.equal(unknown.statusCode, 401)
    assert.equal(wrong.json().message, unknown.json().message)
  })

  test('when the body is invalid, then 400 with each rule', async () => {
    const res = await login({ email: 'not-an-email', extra: true })
    assert.equal(res.statusCode, 400)
    assert.deepEqual([...res.json().message].sort(), ['email must be an email', 'password should not be empty', 'property extra should not exist'])
  })

  test('passwords are stored as argon2id hashes', async () => {
    const [row] = await t.deps.database.db.query.adminUsers.findMany()
    assert.match(row!.passwordHash, /^\$argon2id\$/)
  })
})
