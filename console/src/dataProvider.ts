// react-admin's data provider over the back-office API: every list is a server page (page, limit,
// the API's filters and search); `meta.total` is the table's total. Only catalogs (a handful) are
// read whole, and reference pickers may read a list whole (the API answers whole without page/limit).
import { type DataProvider, HttpError, type Identifier } from 'react-admin'
import { api, query } from './api.ts'

interface ResourceRoutes {
  /** The list's path for these filters (some lists live under a catalog or a partner). */
  list(filter: Record<string, any>): Promise<string> | string
  /** Filters the list passes to the API as they are. */
  filters: string[]
  one?(id: Identifier): string
  update?(id: Identifier): string
  updateMethod?: 'PATCH' | 'PUT'
  create?(data: Record<string, any>): string
  /** The API answers the whole list, without paging. */
  whole?: boolean
  /** Filters the list sends when these filters do not say otherwise. */
  defaults?(filter: Record<string, any>): Record<string, unknown>
  /** Fields of a create that name its path (its catalog), not sent in the body. */
  pathFields?: string[]
  /** Fields a create sends even when null, where null means something (no free shipping). */
  nullable?: string[]
  /** The rows of the API's data, each with an id, when the data is not already those rows. */
  rows?(data: any): any[]
  /** One record the API has no GET of its own for (found another way). */
  find?(id: Identifier): Promise<any>
}

let firstCatalog: Promise<string> | null = null
let firstPartner: Promise<string> | null = null
/** The catalog a catalog list shows when none is chosen: the first one. */
export function defaultCatalogId(): Promise<string> {
  firstCatalog ??= api<{ id: string }[]>('GET', '/admin/catalogs').then((a) => a.data[0]?.id ?? '')
  return firstCatalog
}
export function defaultPartnerId(): Promise<string> {
  firstPartner ??= api<{ id: string }[]>('GET', '/admin/partners?limit=1').then((a) => a.data[0]?.id ?? '')
  return firstPartner
}

/** The catalog of each location read so far: a location has no GET of its own, it is found in its catalog's list. */
const catalogOfLocation = new Map<string, string>()

function locationsRead(data: { id: string; catalogId: string }[]) {
  for (const location of data) catalogOfLocation.set(location.id, location.catalogId)
  return data
}

/** A location by id: in its catalog's list (known once read), else in each catalog's (a handful). */
async function locationById(id: Identifier): Promise<any> {
  const known = catalogOfLocation.get(String(id))
  const catalogIds = known ? [known] : (await api<{ id: string }[]>('GET', '/admin/catalogs')).data.map((c) => c.id)
  for (const catalogId of catalogIds) {
    const found = locationsRead((await api<any[]>('GET', `/admin/catalogs/${catalogId}/locations`)).data).find((l) => l.id === id)
    if (found) return found
  }
  throw new HttpError('Location not found', 404)
}

const ROUTES: Record<string, ResourceRoutes> = {
  orders: { list: () => '/admin/orders', filters: ['status', 'partnerId'], one: (id) => `/admin/orders/${id}` },
  returns: { list: () => '/admin/returns', filters: ['status', 'resolution', 'partnerId'], one: (id) => `/admin/returns/${id}` },
  tickets: { list: () => '/admin/support/tickets', filters: ['status', 'partnerId'], one: (id) => `/admin/support/tickets/${id}` },
  customers: { list: () => '/admin/customers', filters: ['phone', 'email', 'name', 'partnerId'], one: (id) => `/admin/customers/${id}` },
  products: {
    list: async (f) => `/admin/catalogs/${f.catalogId || (await defaultCatalogId())}/products`,
    filters: [],
    one: (id) => `/admin/products/${id}`,
    update: (id) => `/admin/products/${id}`,
    create: (data) => `/admin/catalogs/${data.catalogId}/products`,
    pathFields: ['catalogId'],
  },
  categories: {
    list: async (f) => `/admin/catalogs/${f.catalogId || (await defaultCatalogId())}/categories`,
    // The tree: the top level unless a parent is named; a search looks at every level.
    filters: ['parentId'],
    defaults: (f) => (f.q || f.parentId ? {} : { parentId: 'root' }),
    one: (id) => `/admin/categories/${id}`,
    update: (id) => `/admin/categories/${id}`,
    create: (data) => `/admin/catalogs/${data.catalogId}/categories`,
    pathFields: ['catalogId'],
  },
  catalogs: { list: () => '/admin/catalogs', filters: [], whole: true },
  coupons: {
    list: async (f) => `/admin/partners/${f.partnerId || (await defaultPartnerId())}/coupons`,
    filters: [],
    update: (id) => `/admin/coupons/${id}`,
    create: (data) => `/admin/partners/${data.partnerId}/coupons`,
  },
  zones: { list: () => '/admin/delivery-zones', filters: [], update: (id) => `/admin/delivery-zones/${id}`, create: () => '/admin/delivery-zones', nullable: ['freeShippingThreshold'] },
  apiKeys: { list: (f) => `/admin/partners/${f.partnerId}/api-keys`, filters: [] },
  partners: { list: () => '/admin/partners', filters: ['isActive'], one: (id) => `/admin/partners/${id}`, update: (id) => `/admin/partners/${id}`, create: () => '/admin/partners' },
  events: { list: () => '/admin/events', filters: ['status', 'type', 'partnerId', 'subjectId'], one: (id) => `/admin/events/${id}` },
  codBlockedPincodes: {
    list: async (f) => `/admin/partners/${f.partnerId || (await defaultPartnerId())}/cod-blocked-pincodes`,
    filters: [],
    rows: (data: { pincode: string }[]) => data.map((row) => ({ id: row.pincode, ...row })),
  },
  taxRates: { list: () => '/admin/tax/rates', filters: [], whole: true },
  gstRegistrations: {
    list: () => '/admin/gst/registrations',
    filters: [],
    one: (id) => `/admin/gst/registrations/${id}`,
    update: (id) => `/admin/gst/registrations/${id}`,
    create: () => '/admin/gst/registrations',
  },
  // Read by the audit log page and the History cards (useGetList: refreshed with the page's record).
  auditLog: { list: () => '/admin/audit-log', filters: ['object', 'objectType', 'actorId', 'action', 'from', 'to'] },
  // Stock locations (decision 0043): a catalog's, answered whole (a few per catalog), by position.
  locations: {
    list: async (f) => `/admin/catalogs/${f.catalogId || (await defaultCatalogId())}/locations`,
    filters: [],
    whole: true,
    rows: locationsRead,
    find: locationById,
    update: (id) => `/admin/locations/${id}`,
    create: (data) => `/admin/catalogs/${data.catalogId}/locations`,
    pathFields: ['catalogId'],
  },
  // What a location holds, per variant (a server page), each row named by its variant.
  locationStock: {
    list: (f) => `/admin/locations/${f.locationId}/stock`,
    filters: [],
    rows: (data: { variantId: string }[]) => data.map((row) => ({ id: row.variantId, ...row })),
  },
  // The inventory ledger of a catalog, newest first (a server page).
  inventoryMoves: {
    list: async (f) => `/admin/catalogs/${f.catalogId || (await defaultCatalogId())}/inventory-moves`,
    filters: ['locationId', 'productId', 'variantId', 'kind'],
  },
  // The back-office accounts (ADMIN only), to name who made a move.
  admins: { list: () => '/admin/admins', filters: [], whole: true },
  untaxedProducts: {
    list: async (f) => `/admin/catalogs/${f.catalogId || (await defaultCatalogId())}/tax/missing`,
    filters: [],
    rows: (data: { products: unknown[] }) => data.products,
  },
}

function routesOf(resource: string): ResourceRoutes {
  const routes = ROUTES[resource]
  if (!routes) throw new Error(`The console has no resource ${resource}`)
  return routes
}

/** Fields the console adds or the API does not take back on a write. */
const READ_ONLY = ['id', 'createdAt', 'updatedAt', 'catalogId', 'partnerId', 'children', 'apiKeys', 'usedCount']

export const dataProvider: DataProvider = {
  async getList(resource, params) {
    const routes = routesOf(resource)
    const { page = 1, perPage = 25 } = params.pagination ?? {}
    const filter = params.filter ?? {}
    const path = await routes.list(filter)
    // A list the API answers whole, or asked whole by a picker (meta.whole: every lazily paged list answers whole without page and limit).
    if (routes.whole || params.meta?.whole) {
      const answer = await api<any>('GET', path)
      const data: any[] = routes.rows ? routes.rows(answer.data) : answer.data
      const q = String(filter.q ?? '').toLowerCase()
      const matching = q ? data.filter((row) => JSON.stringify(row).toLowerCase().includes(q)) : data
      return { data: matching.slice((page - 1) * perPage, page * perPage), total: matching.length }
    }
    const values: Record<string, unknown> = { page, limit: Math.min(perPage, 100), search: filter.q, ...routes.defaults?.(filter) }
    for (const name of routes.filters) values[name] ??= filter[name]
    const answer = await api<any>('GET', `${path}${query(values)}`)
    const rows: any[] = routes.rows ? routes.rows(answer.data) : answer.data
    return { data: rows, total: answer.meta?.total ?? rows.length }
  },
  async getOne(resource, params) {
    const routes = routesOf(resource)
    if (routes.find) return { data: await routes.find(params.id) }
    if (!routes.one) {
      const { data } = await this.getList(resource, { pagination: { page: 1, perPage: 100 }, sort: { field: 'id', order: 'ASC' }, filter: params.meta ?? {} })
      const found = data.find((row) => row.id === params.id)
      if (!found) throw new Error(`${resource} ${params.id} not found`)
      return { data: found }
    }
    return { data: (await api('GET', routes.one(params.id))).data }
  },
  async getMany(resource, params) {
    if (resource === 'catalogs' || resource === 'zones') {
      // A reference picker's few ids: read from the list, whole (no page asked: the API answers it all).
      const { data } = await api<any[]>('GET', await routesOf(resource).list({}))
      return { data: data.filter((row) => params.ids.includes(row.id)) }
    }
    return { data: await Promise.all(params.ids.map(async (id) => (await this.getOne(resource, { id })).data)) }
  },
  async getManyReference(resource, params) {
    return this.getList(resource, { ...params, filter: { ...params.filter, [params.target]: params.id } })
  },
  async update(resource, params) {
    const routes = routesOf(resource)
    if (!routes.update) throw new Error(`${resource} cannot be edited here`)
    // Only the fields the form changed are sent, so a PATCH never writes back what it was not asked to.
    const changed: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(params.data as Record<string, unknown>)) {
      if (READ_ONLY.includes(key)) continue
      if (JSON.stringify(value) !== JSON.stringify((params.previousData as Record<string, unknown>)?.[key])) changed[key] = value
    }
    const { data } = await api(routes.updateMethod ?? 'PATCH', routes.update(params.id), changed)
    return { data: { ...params.previousData, ...data } }
  },
  async create(resource, params) {
    const routes = routesOf(resource)
    if (!routes.create) throw new Error(`${resource} cannot be created here`)
    // Inputs left empty are left out: the API's defaults apply.
    const body = Object.fromEntries(Object.entries(params.data as Record<string, unknown>).filter(([k, v]) => (v !== null || routes.nullable?.includes(k)) && v !== undefined && v !== ''))
    const path = routes.create(body)
    delete body.partnerId
    for (const field of routes.pathFields ?? []) delete body[field]
    return { data: (await api('POST', path, body)).data }
  },
  async updateMany() {
    throw new Error('Not supported')
  },
  async delete() {
    throw new Error('Not supported')
  },
  async deleteMany() {
    throw new Error('Not supported')
  },
}
