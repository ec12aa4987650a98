// /admin products' variants (decision 0043): the whole grid of a product's options and variants,
// and one variant's fields.
import { Type } from 'typebox'
import { Envelope, errorResponses, ok } from '../../http/envelope.ts'
import type { RouteApp } from '../../http/route-app.ts'
import { type CatalogAdminDeps, catalogAdminCommon, sec, tags } from './admin-route-shared.ts'
import { ProductParams } from './product-admin-routes.ts'
import { AdminProduct, VariantFields, VariantGrid } from './schemas.ts'

const VariantParams = Type.Object({ productId: Type.String({ maxLength: 100 }), variantId: Type.String({ maxLength: 100 }) })

export function variantAdminRoutes(app: RouteApp, { admin, guards }: CatalogAdminDeps): void {
  const common = catalogAdminCommon(guards)

  app.put(
    '/admin/products/:productId/variants',
    {
      ...common,
      schema: {
        operationId: 'adminPutVariants',
        tags,
        security: sec,
        summary: "Set a product's options and all its variants (variants not listed are removed)",
        description:
          "The whole grid, as GET /admin/products/{productId} answers it. The product's sku, sellingPrice, mrp and stock become its variants' summary (the first variant's SKU, the lowest-priced active variant's price and MRP, the active variants' stock) and are written through the variants from then on. A product without options keeps its default variant's id on the first variant not named by id.",
        params: ProductParams,
        body: VariantGrid,
        response: { 200: Envelope(AdminProduct), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.putVariants(request.params.productId, request.body), 'Variants saved'),
  )

  app.patch(
    '/admin/products/:productId/variants/:variantId',
    {
      ...common,
      schema: {
        operationId: 'adminUpdateVariant',
        tags,
        security: sec,
        summary: "Update one variant of a product with options: price, MRP, stock, SKU and any other field",
        params: VariantParams,
        body: Type.Partial(Type.Object(VariantFields)),
        response: { 200: Envelope(AdminProduct), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ok(await admin.updateVariant(request.params.productId, request.params.variantId, request.body), 'Variant updated'),
  )
}
