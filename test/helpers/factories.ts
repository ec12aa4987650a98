// Test data built through the services and the API, never raw inserts that skip the rules.
import { randomInt, randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../../src/deps.ts'
import { type AdminRole, createAdmin } from '../../src/modules/admins/index.ts'
import { createPartner } from '../../src/modules/partners/index.ts'

export interface PartnerFixture {
  partnerId: string
  secret: string
  apiKey: string
  apiKeyId: string
  catalogId: string
}

/** A partner of its own: partner names are unique, so the name given gets a random suffix. */
export async function givenPartner(deps: Deps, name = 'Test partner', catalogId?: string): Promise<PartnerFixture> {
  const created = await createPartner(deps.database.db, { name: `${name} ${randomUUID().slice(0, 8)}`, catalogId })
  return {
    partnerId: created.partner.id,
    secret: created.secret,
    apiKey: created.apiKey,
    apiKeyId: created.apiKeyId,
    catalogId: created.catalogId,
  }
}

export function randomPhone(): string {
  return `9${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`
}

export interface CustomerFixture {
  accessToken: string
  refreshToken: string
  userId: string
  phone: string
  partnerId: string
}

export async function givenCustomer(
  app: FastifyInstance,
  partner: PartnerFixture,
  body: { phone?: string; name?: string; email?: string } = {},
): Promise<CustomerFixture> {
  const phone = body.phone ?? randomPhone()
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/customer-token',
    headers: { 'x-partner-id': partner.partnerId, 'x-partner-secret': partner.secret },
    payload: { name: 'Test Customer', ...body, phone },
  })
  if (res.statusCode !== 200) throw new Error(`customer-token failed: ${res.statusCode} ${res.body}`)
  const data = res.json().data
  return { accessToken: data.accessToken, refreshToken: data.refreshToken, userId: data.user.id, phone, partnerId: partner.partnerId }
}

export function customerHeaders(customer: CustomerFixture): Record<string, string> {
  return { authorization: `Bearer ${customer.accessToken}`, 'x-partner-id': customer.partnerId }
}

/** A back-office user with this role, logged in through the API: its bearer token. */
export async function givenAdminToken(app: FastifyInstance, deps: Deps, email: string, role: AdminRole): Promise<string> {
  await createAdmin(deps.database.db, { email, password: 'long-enough-password', role })
  const res = await app.inject({ method: 'POST', url: '/api/v1/admin/auth/login', payload: { email, password: 'long-enough-password' } })
  if (res.statusCode !== 200) throw new Error(`admin login failed: ${res.statusCode} ${res.body}`)
  return res.json().data.accessToken
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net')
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
