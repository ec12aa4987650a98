// List scopes (src/lib/scope.ts): the tenant of a customer's list is never empty or hand-written.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { backOfficeScope, type CustomerScope, customerScope } from '../../src/lib/scope.ts'

test('a customer scope with an empty partner or customer cannot be made', () => {
  assert.throws(() => customerScope('', 'usr_1'))
  assert.throws(() => customerScope('ptn_1', ''))
  assert.deepEqual({ ...customerScope('ptn_1', 'usr_1') }, { kind: 'customer', partnerId: 'ptn_1', userId: 'usr_1' })
})

test('an empty partner id names no partner in the back office; no partner id means every partner', () => {
  assert.throws(() => backOfficeScope(''))
  assert.deepEqual(backOfficeScope(undefined), { kind: 'back-office', partnerId: null, userId: null })
  assert.throws(() => backOfficeScope('ptn_1', ''))
})

test('a customer scope cannot be written as an object literal (the typecheck fails if it can)', () => {
  // @ts-expect-error only customerScope() makes one, from a verified credential
  const forged: CustomerScope = { kind: 'customer', partnerId: '', userId: '' }
  assert.equal(forged.kind, 'customer')
})
