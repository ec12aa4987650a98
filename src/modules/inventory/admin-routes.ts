// Back office (admin bearer, roles CATALOG or ADMIN): a catalog's stock locations, their levels, stock
// received and adjusted, transfers, and the inventory ledger (decision 0043, step 5).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Envelope, errorResponses, ok, PagedEnvelope, paged } from '../../http/envelope.ts'
import { adminOf, type Guards } from '../../http/guards.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { security } from '../../http/schemas.ts'
import type { InventoryAdminService } from './admin-service.ts'
import { CreateLocation, Level, Location, Move, MovesQuery, PageQuery, StockMove, Transfer, UpdateLocation } from './schemas.ts'

const tags = ['Admin: inventory']
const sec = security.admin
const CatalogParams = Type.Object({ catalogId: Type.String({ maxLength: 100 }) })
const LocationParams = Type.Object({ locationId: Type.String({ maxLength: 100 }) })

export const inventoryAdminRoutes: FastifyPluginAsyncTypebox<{ admin: InventoryAdminService; guards: Guards }> = async (app, deps) => {
  locationRoutes(app, deps)
  stockRoutes(app, deps)
}

interface InventoryAdminDeps {
  admin: InventoryAdminService
  guards: Guards
}

/** Locations: list, create, edit. */
function locationRoutes(app: RouteApp, { admin, guards }: InventoryAdminDeps): void {
  const common = { preValidation: guards.admin('CATALOG') }

  app.get(
    '/admin/catalogs/:catalogId/locations',
    {
      ...common,
      schema: {
        operationId: 'adminListLocations',
        tags,
        security: sec,
        summary: "A catalog's stock locations, by position, with the units each holds",
        params: CatalogParams,
        response: { 200: Envelope(Type.Array(Location)), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ok(await admin.locations(request.params.catalogId), 'Locations retrieved'),
  )

  app.post(
    '/admin/catalogs/:catalogId/locations',
    {
      ...common,
      schema: {
        operationId: 'adminCreateLocation',
        tags,
        security: sec,
        summary: "A new stock location. The catalog's first takes its whole stock as an opening balance, and the catalog's stock is kept at locations from then on",
        description:
          'The state must be the pincode\'s; a registrationId must be a GST registration of that state. The first location of a catalog receives every unit the catalog has in stock (moves RECEIVE, reason "Opening balance"); from then on the catalog\'s stock is the sum of its locations\' levels: it changes only here (receipts, adjustments) and by orders, and the flat stock writes of products and variants answer 409.',
        params: CatalogParams,
        body: CreateLocation,
        response: { 201: Envelope(Location), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { name, addressLine1, city, state, pincode, registrationId, pickupName, position } = request.body
      const created = await admin.createLocation(request.params.catalogId, { name, addressLine1, city, state, pincode, registrationId, pickupName, position }, adminOf(request).adminId)
      return reply.code(201).send(ok(created, 'Location created', 201))
    },
  )

  app.patch(
    '/admin/locations/:locationId',
    {
      ...common,
      schema: {
        operationId: 'adminUpdateLocation',
        tags,
        security: sec,
        summary: 'Edit a location; closing it (isActive false) is refused while it holds units',
        params: LocationParams,
        body: UpdateLocation,
        response: { 200: Envelope(Location), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { name, addressLine1, city, state, pincode, registrationId, pickupName, position, isActive } = request.body
      return ok(await admin.updateLocation(request.params.locationId, { name, addressLine1, city, state, pincode, registrationId, pickupName, position, isActive }), 'Location updated')
    },
  )

}

/** Levels, receipts and adjustments, transfers, the ledger. */
function stockRoutes(app: RouteApp, { admin, guards }: InventoryAdminDeps): void {
  const common = { preValidation: guards.admin('CATALOG') }

  app.get(
    '/admin/locations/:locationId/stock',
    {
      ...common,
      schema: {
        operationId: 'adminListLocationStock',
        tags,
        security: sec,
        summary: 'The units a location holds, per variant (those it holds none of left out)',
        params: LocationParams,
        querystring: Type.Object(PageQuery),
        response: { 200: PagedEnvelope(Level), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit } = request.query
      const result = await admin.levels(request.params.locationId, { page, limit })
      return paged(result.data, result.meta, 'Stock retrieved')
    },
  )

  app.post(
    '/admin/locations/:locationId/stock',
    {
      ...common,
      schema: {
        operationId: 'adminMoveLocationStock',
        tags,
        security: sec,
        summary: "Units received at a location (RECEIVE), or its count corrected (ADJUST): its level, the catalog's stock and the ledger together",
        params: LocationParams,
        body: StockMove,
        response: { 200: Envelope(Level), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { productId, variantId, kind, quantity, reason } = request.body
      return ok(await admin.moveStock(request.params.locationId, { productId, variantId, kind, quantity, reason }, adminOf(request).adminId), 'Stock moved')
    },
  )

  app.post(
    '/admin/locations/:locationId/transfers',
    {
      ...common,
      schema: {
        operationId: 'adminTransferStock',
        tags,
        security: sec,
        summary: 'Units moved from this location to another of the catalog (TRANSFER_OUT and TRANSFER_IN, one transfer id); the catalog\'s stock is unchanged',
        params: LocationParams,
        body: Transfer,
        response: {
          200: Envelope(Type.Object({ transferId: Type.String(), from: Level, to: Level })),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request) => {
      const { productId, variantId, toLocationId, quantity, reason } = request.body
      return ok(await admin.transfer(request.params.locationId, { productId, variantId, toLocationId, quantity, reason }, adminOf(request).adminId), 'Stock transferred')
    },
  )

  app.get(
    '/admin/catalogs/:catalogId/inventory-moves',
    {
      ...common,
      schema: {
        operationId: 'adminListInventoryMoves',
        tags,
        security: sec,
        summary: "The catalog's inventory ledger, newest first: every receipt, adjustment, transfer, sale, release and return, with who and why",
        params: CatalogParams,
        querystring: MovesQuery,
        response: { 200: PagedEnvelope(Move), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, locationId, productId, variantId, kind } = request.query
      const result = await admin.moves(request.params.catalogId, { locationId, productId, variantId, kind }, { page, limit })
      return paged(result.data, result.meta, 'Inventory moves retrieved')
    },
  )
}
