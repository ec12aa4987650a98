// The back office's one search box (issue #39): GET /admin/search?q= finds orders, customers and
// products at once, every partner's. A flow, above the modules: each module says what of its own
// the text finds (orders: by number, id, a parcel's AWB, phone, the customer's name or e-mail;
// customers: by name, e-mail or phone; catalog: by SKU or name) as a select of search keys, and
// shows its hits by id; only here are the three put together, in one order and one set of pages.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { sql } from 'drizzle-orm'
import { type Static, Type } from 'typebox'
import { type Executor, queryRows } from '../db/client.ts'
import { errorResponses, PagedEnvelope, paged } from '../http/envelope.ts'
import type { Guards } from '../http/guards.ts'
import { Money, Nullable, PageQuery, security, Time } from '../http/schemas.ts'
import { formatPaise } from '../lib/money.ts'
import { type Page, pageMeta, pageOffset } from '../lib/pagination.ts'
import { productHits, productSearchKeys } from '../modules/catalog/index.ts'
import { customerHits, customerSearchKeys } from '../modules/customers/index.ts'
import { orderHits, orderSearchKeys } from '../modules/orders/index.ts'

export const SearchHitType = Type.Enum(['ORDER', 'CUSTOMER', 'PRODUCT'])

export const SearchHit = Type.Object(
  {
    type: SearchHitType,
    id: Type.String({ description: 'The id of the order, customer or product: with type, what a link to it needs (GET /admin/orders/{id}, /admin/customers/{id}, /admin/products/{id})' }),
    title: Type.String({ description: "An order's number, a customer's name (the phone when there is none), a product's name", examples: ['CM-7K3P-9QX2'] }),
    subtitle: Type.String({ description: "An order's recipient, phone and city; a customer's phone and e-mail; a product's SKU, brand and stock", examples: ['Asha Rao · 9876543210 · Bengaluru'] }),
    exact: Type.Boolean({ description: 'The text is the whole of an order number or id, an AWB of one of its parcels, a whole mobile, an e-mail or a SKU: listed before the other hits' }),
    status: Type.String({ description: "An order's status; a customer ACTIVE or BLOCKED; a product ACTIVE or INACTIVE", examples: ['CONFIRMED'] }),
    amount: Nullable(Money("An order's total, a product's selling price; null for a customer")),
    partnerId: Nullable(Type.String({ description: "The partner of an order or customer; null for a product (catalogs are shared)" })),
    createdAt: Time,
  },
  { description: 'One thing the search found' },
)
type Hit = Static<typeof SearchHit>

/** A select of `(type, id, exact, created_at)` from each module: every hit's place in the answer. */
const searchKeys = (q: string) => sql`(${orderSearchKeys(q)}) union all (${customerSearchKeys(q)}) union all (${productSearchKeys(q)})`

/**
 * The hits of one page: exact hits first, then newest first, the id breaking ties (byte order, the
 * same on every server), so pages never overlap nor skip. The order is PostgreSQL's, over the union
 * of the three modules' keys; only the page's hits are then read, by id, from their modules.
 */
export async function adminSearch(db: Executor, q: string, page: Page): Promise<{ data: Hit[]; meta: ReturnType<typeof pageMeta> }> {
  const found = searchKeys(q)
  const [keys, [total]] = await Promise.all([
    queryRows<{ type: Hit['type']; id: string; exact: boolean | null }>(
      db,
      sql`select type, id, exact from (${found}) as hit order by exact desc nulls last, created_at desc, id collate "C" desc limit ${page.limit} offset ${pageOffset(page)}`,
    ),
    queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${found}) as hit`),
  ])
  const idsOf = (type: Hit['type']) => keys.filter((k) => k.type === type).map((k) => k.id)
  const [orders, customers, products] = await Promise.all([orderHits(db, idsOf('ORDER')), customerHits(db, idsOf('CUSTOMER')), productHits(db, idsOf('PRODUCT'))])
  const data: Hit[] = []
  for (const { type, id, exact } of keys) {
    const isExact = exact === true
    if (type === 'ORDER') {
      const o = orders.get(id)
      if (o) data.push({ type, id, title: o.orderNumber, subtitle: [o.recipient, o.phone, o.city].filter(Boolean).join(' · '), exact: isExact, status: o.status, amount: formatPaise(o.totalAmount), partnerId: o.partnerId, createdAt: o.createdAt.toISOString() })
    } else if (type === 'CUSTOMER') {
      const c = customers.get(id)
      if (c) data.push({ type, id, title: c.name || c.phone, subtitle: [c.phone, c.email].filter(Boolean).join(' · '), exact: isExact, status: c.blocked ? 'BLOCKED' : 'ACTIVE', amount: null, partnerId: c.partnerId, createdAt: c.createdAt.toISOString() })
    } else {
      const p = products.get(id)
      if (p) data.push({ type, id, title: p.name, subtitle: `SKU ${p.sku} · ${p.brand} · ${p.stock} in stock`, exact: isExact, status: p.isActive ? 'ACTIVE' : 'INACTIVE', amount: formatPaise(p.sellingPrice), partnerId: null, createdAt: p.createdAt.toISOString() })
    }
  }
  return { data, meta: pageMeta(total?.n ?? 0, page) }
}

export const adminSearchRoutes: FastifyPluginAsyncTypebox<{ db: Executor; guards: Guards }> = async (app, { db, guards }) => {
  app.get(
    '/admin/search',
    {
      preValidation: guards.admin('SUPPORT'),
      schema: {
        operationId: 'adminSearch',
        tags: ['Admin: search'],
        security: security.admin,
        summary: "Find orders, customers and products, every partner's, from one text: exact hits first, then newest first",
        description:
          'Orders by order number (whole or part, any case), order id, the AWB of one of its parcels, a phone (the shipping phone, the alternate phone or the account phone: ' +
          '`+91 98765 43210`, `098765 43210`, `9876543210`, or its last 4 or more digits) or part of the customer\'s name or e-mail; customers by name, e-mail or phone; ' +
          'products by SKU (whole or its beginning) or part of the name. Each hit has its type and id, what a link to it needs.',
        querystring: Type.Object({
          q: Type.String({ minLength: 2, maxLength: 100, pattern: '\\S\\s*\\S', 'x-message': 'must be 2 to 100 characters, 2 of them visible', description: 'What to find', examples: ['7K3P', '98765 43210', 'asha'] }),
          ...PageQuery,
        }),
        response: { 200: PagedEnvelope(SearchHit), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { q, page, limit } = request.query
      const result = await adminSearch(db, q, { page, limit })
      return paged(result.data, result.meta, 'Search results retrieved')
    },
  )
}
