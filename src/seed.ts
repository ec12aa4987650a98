// Demo data for development: a catalog, a demo partner with a secret and an API key, and a demo
// admin. Secrets are stored hashed, so a re-run cannot show the old ones: it rotates the demo
// partner's secret, issues a new key and resets the demo admin's password, and prints those.
// Composition level (beside app.ts), not db/: it uses several modules through their indexes.
import { randomBytes } from 'node:crypto'
import type { Db } from './db/client.ts'
import { anyAdminExists, upsertAdminPassword } from './modules/admins/index.ts'
import { createCoupon, findCouponId, seedDeliveryZones } from './modules/checkout/index.ts'
import { createCatalog, findDefaultCatalog, importDemoCatalog } from './modules/catalog/index.ts'
import { anyPartnerExists, createApiKey, createPartner, findPartnerByName, rotatePartnerSecret } from './modules/partners/index.ts'

export const DEMO_PARTNER_NAME = 'Demo partner'
export const DEMO_ADMIN_EMAIL = 'admin@demo.local'

export interface DemoCredentials {
  baseUrl: string
  partner: { id: string; name: string; secret: string }
  apiKey: string
  catalogId: string
  admin: { email: string; password: string }
}

export async function seedDemoData(db: Db, baseUrl: string): Promise<DemoCredentials> {
  const catalog = (await findDefaultCatalog(db)) ?? (await createCatalog(db, 'Demo catalog'))
  await importDemoCatalog(db, catalog.id)
  await seedDeliveryZones(db)
  const existing = await findPartnerByName(db, DEMO_PARTNER_NAME)
  let partner: DemoCredentials['partner']
  let apiKey: string
  if (existing) {
    partner = { id: existing.id, name: existing.name, secret: (await rotatePartnerSecret(db, existing.id, new Date(), 0)).secret }
    apiKey = (await createApiKey(db, existing.id, catalog.id)).apiKey
  } else {
    const created = await createPartner(db, { name: DEMO_PARTNER_NAME, catalogId: catalog.id })
    partner = { id: created.partner.id, name: created.partner.name, secret: created.secret }
    apiKey = created.apiKey
  }
  await seedDemoCoupon(db, partner.id)
  const password = randomBytes(12).toString('base64url')
  await upsertAdminPassword(db, { email: DEMO_ADMIN_EMAIL, password, role: 'ADMIN' })
  return { baseUrl, partner, apiKey, catalogId: catalog.id, admin: { email: DEMO_ADMIN_EMAIL, password } }
}

/** How to call the API with the demo credentials, printed by `npm start` and `commerce seed`. */
export function describeCredentials(c: DemoCredentials): string {
  return [
    'Demo credentials (also in DATA_DIR/credentials.json):',
    `  Partner ID (x-partner-id):    ${c.partner.id}`,
    `  Partner secret:               ${c.partner.secret}`,
    `  API key (x-api-key):          ${c.apiKey}`,
    `  Admin login:                  ${c.admin.email} / ${c.admin.password}`,
    '',
    'Try it:',
    `  curl -H 'x-api-key: ${c.apiKey}' ${c.baseUrl}/api/v1/categories`,
    `  curl -X POST ${c.baseUrl}/api/v1/auth/customer-token -H 'content-type: application/json' \\`,
    `       -H 'x-partner-id: ${c.partner.id}' -H 'x-partner-secret: ${c.partner.secret}' \\`,
    `       -d '{"phone":"9876543210","name":"Asha Rao"}'`,
    `  Reference: ${c.baseUrl}/docs`,
    `  Back office: ${c.baseUrl}/admin (the admin login above)`,
  ].join('\n')
}

/** WELCOME10: 10% off up to ₹200 on orders from ₹499, once per customer. */
async function seedDemoCoupon(db: Db, partnerId: string) {
  if (await findCouponId(db, partnerId, 'WELCOME10')) return
  await createCoupon(db, partnerId, { code: 'WELCOME10', kind: 'PERCENT', value: 10n, maxDiscount: 20_000n, minOrderValue: 49_900n, perCustomerLimit: 1 }, new Date())
}

/** True before anything was created: no partner and no admin (the server seeds demo data into such an embedded database). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  return !(await anyPartnerExists(db)) && !(await anyAdminExists(db))
}
