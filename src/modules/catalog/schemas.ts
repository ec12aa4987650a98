// Request and response schemas of the catalog module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { Limit, Money, MoneyInput, Nullable, NullableGstRateBps, NullableHsnCode, Time } from '../../http/schemas.ts'

export const ChildCategory = Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String(), parentId: Type.String() })
export const TopCategory = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  parentId: Type.Null(),
  children: Type.Array(ChildCategory),
})
/** An option of a product (decision 0043): its name and values, in the merchant's order. */
export const ProductOption = Type.Object({ name: Type.String({ examples: ['Size'] }), values: Type.Array(Type.String(), { examples: [['S', 'M', 'L']] }) })
export const Product = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  brand: Type.String(),
  sku: Type.String({ description: "A product with several variants: its first variant's SKU" }),
  categoryId: Type.String(),
  sellingPrice: Money("Selling price (a product with several variants: its lowest-priced active variant's)"),
  mrp: Money("Maximum retail price (a product with several variants: that of its lowest-priced active variant)"),
  stock: Type.Integer({ description: "Units available (a product with several variants: the sum of its active variants')" }),
  images: Type.Array(Type.String()),
  isActive: Type.Boolean(),
  options: Type.Array(ProductOption, { maxItems: 3, description: 'Up to three options (Size, Colour, Pack); none: the product has one variant, its default' }),
  priceRange: Type.Object(
    { min: Money("The lowest active variant's price"), max: Money("The highest active variant's price") },
    { description: 'The prices of its active variants (a one-variant product: its price, twice)' },
  ),
})
/** One variant of a product: an option value per option (none for the default variant). */
export const ProductVariant = Type.Object({
  id: Type.String({ description: 'Send it as variantId on cart and order lines' }),
  sku: Type.String(),
  title: Nullable(Type.String({ description: 'The option values joined, M / Red (null: the default variant of a product without options)' })),
  options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  sellingPrice: Money(),
  mrp: Money(),
  stock: Type.Integer(),
  isActive: Type.Boolean(),
})
/** GET /products with a categoryId: the counts of its products' option values. */
export const OptionFacet = Type.Object({
  name: Type.String({ examples: ['Size'] }),
  values: Type.Array(
    Type.Object({
      value: Type.String({ examples: ['M'] }),
      count: Type.Integer({ description: 'Products this value would find beside the other option filters given (an active variant holding them all)' }),
    }),
    { description: "In the merchant's order of the option's values" },
  ),
})
/** GET /products/{slug}: the product with its variants. */
export const ProductDetail = Type.Object({ ...Product.properties, variants: Type.Array(ProductVariant, { minItems: 1 }) })
export const SearchResult = Type.Object({
  products: Type.Array(
    Type.Object({
      id: Type.String(),
      slug: Type.String(),
      name: Type.String(),
      brand: Type.String(),
      sellingPrice: Money('Selling price'),
      images: Type.Array(Type.String()),
      categoryId: Type.String(),
      score: Type.Number({ description: 'Relevance in [0, 1), higher is better' }),
      variant: Type.Optional(
        Type.Object(
          {
            id: Type.String({ description: 'Send it as variantId on cart and order lines' }),
            title: Type.String({ examples: ['XL / Red'] }),
            options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
            sellingPrice: Money("The variant's selling price"),
          },
          {
            description:
              'A product with options whose option values the query names ("red kurta xl"): the active variant holding the most query words (ties: the first in the product\'s order). Absent when the query names no option value.',
          },
        ),
      ),
    }),
  ),
  categories: Type.Array(
    Type.Object({
      id: Type.String(),
      slug: Type.String(),
      name: Type.String(),
      image: Type.Union([Type.String(), Type.Null()]),
      score: Type.Number(),
    }),
  ),
  totalResults: Type.Integer(),
  topScore: Type.Number(),
})
export const Page = Limit(100_000, 1)
export const Slug = Type.String({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', 'x-message': 'must be lower-case words joined by hyphens' })
export const ImageUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000, 'x-message': 'must be an http(s) URL' })
export const Catalog = Type.Object({ id: Type.String(), name: Type.String(), createdAt: Time })
export const Category = Type.Object({
  id: Type.String(),
  catalogId: Type.String(),
  parentId: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  slug: Type.String(),
  image: Type.Union([Type.String(), Type.Null()]),
  position: Type.Integer(),
  isActive: Type.Boolean(),
  hsnCode: Nullable(Type.String({ description: 'Default HSN/SAC code of its products (null: inherited from the parent, if any)' })),
  gstRateBps: Nullable(Type.Integer({ description: 'Default GST rate of its products in basis points (null: inherited from the parent, if any)' })),
  createdAt: Time,
  updatedAt: Time,
})
/** A packed unit's size for carriers (decision 0030): whole centimetres, each 1 to 500. */
export const DimensionsCm = Type.Object(
  {
    length: Type.Integer({ minimum: 1, maximum: 500 }),
    breadth: Type.Integer({ minimum: 1, maximum: 500 }),
    height: Type.Integer({ minimum: 1, maximum: 500 }),
  },
  { additionalProperties: false, description: "The packed unit's size in whole centimetres (null: not given; a parcel then counts it as a 10 cm cube)", examples: [{ length: 30, breadth: 20, height: 8 }] },
)
/** A variant in the back office: what it sells as, and what it inherits (null) from its product. */
export const AdminVariant = Type.Object({
  id: Type.String(),
  title: Nullable(Type.String({ description: 'Its option values joined, M / Red (null: the default variant of a product without options)' })),
  options: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
  sku: Type.String(),
  sellingPrice: Type.String(),
  mrp: Type.String(),
  stock: Type.Integer(),
  weightGrams: Nullable(Type.Integer({ description: "null: the product's" })),
  dimensionsCm: Nullable(DimensionsCm),
  barcode: Nullable(Type.String({ description: 'GTIN-8, 12, 13 or 14 (EAN/UPC)' })),
  hsnCode: Nullable(Type.String({ description: "null: the product's" })),
  gstRateBps: Nullable(Type.Integer({ description: "null: the product's" })),
  images: Type.Array(Type.String(), { description: "none: the product's" }),
  isActive: Type.Boolean(),
})
export const AdminProduct = Type.Object({
  id: Type.String(),
  catalogId: Type.String(),
  categoryId: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  brand: Type.String(),
  sku: Type.String(),
  description: Type.String(),
  sellingPrice: Type.String(),
  mrp: Type.String(),
  stock: Type.Integer(),
  images: Type.Array(Type.String()),
  weightGrams: Type.Integer(),
  dimensionsCm: Nullable(DimensionsCm),
  isActive: Type.Boolean(),
  hsnCode: Nullable(Type.String({ description: "HSN/SAC code (null: the category's)" })),
  gstRateBps: Nullable(Type.Integer({ description: "GST rate in basis points (null: the category's)" })),
  options: Type.Array(ProductOption, { description: 'Up to three options; none: one variant, the default (the product itself)' }),
  variants: Type.Array(AdminVariant, { description: "Its variants (a product without options: its default, the product's own fields)" }),
  createdAt: Time,
  updatedAt: Time,
})
export const CategoryFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  slug: Slug,
  parentId: Type.Union([Type.String({ maxLength: 100 }), Type.Null()]),
  image: Type.Union([ImageUrl, Type.Null()]),
  position: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  isActive: Type.Boolean(),
  hsnCode: NullableHsnCode,
  gstRateBps: NullableGstRateBps,
}
export const ProductFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Slug,
  brand: Type.String({ minLength: 1, maxLength: 100 }),
  sku: Type.String({ minLength: 1, maxLength: 64 }),
  categoryId: Type.String({ maxLength: 100 }),
  sellingPrice: MoneyInput('Rupees: a decimal string such as "1299.00" or a number'),
  mrp: MoneyInput('Rupees: a decimal string such as "1299.00" or a number'),
  stock: Type.Integer({ minimum: 0, maximum: 10_000_000 }),
  images: Type.Array(ImageUrl, { maxItems: 10 }),
  description: Type.String({ maxLength: 5000 }),
  weightGrams: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
  dimensionsCm: Nullable(DimensionsCm),
  isActive: Type.Boolean(),
  hsnCode: NullableHsnCode,
  gstRateBps: NullableGstRateBps,
}
const OptionValue = Type.String({ minLength: 1, maxLength: 60 })
const Barcode = Type.String({ pattern: '^[0-9]{8}$|^[0-9]{12,14}$', 'x-message': 'must be a GTIN-8, 12, 13 or 14 (digits only)' })
/** The fields of a variant that PUT (each variant of the grid) and PATCH (one variant) write. */
export const VariantFields = {
  sku: ProductFields.sku,
  sellingPrice: ProductFields.sellingPrice,
  mrp: ProductFields.mrp,
  stock: ProductFields.stock,
  weightGrams: Nullable(ProductFields.weightGrams),
  dimensionsCm: Nullable(DimensionsCm),
  barcode: Nullable(Barcode),
  hsnCode: NullableHsnCode,
  gstRateBps: NullableGstRateBps,
  images: ProductFields.images,
  isActive: ProductFields.isActive,
}
/** PUT /admin/products/{productId}/variants: the whole grid, options and every variant. */
export const VariantGrid = Type.Object({
  options: Type.Array(
    Type.Object({ name: Type.String({ minLength: 1, maxLength: 40 }), values: Type.Array(OptionValue, { minItems: 1, maxItems: 100 }) }),
    { minItems: 1, maxItems: 3, description: 'One to three options, in the order shoppers choose them' },
  ),
  variants: Type.Array(
    Type.Object({
      id: Type.Optional(Type.String({ maxLength: 100, description: 'A variant of the product to keep (left out: a new variant; variants not listed are removed)' })),
      options: Type.Array(Type.Object({ name: Type.String({ maxLength: 40 }), value: OptionValue }), { maxItems: 3, description: 'One value for each option' }),
      sku: VariantFields.sku,
      sellingPrice: VariantFields.sellingPrice,
      mrp: VariantFields.mrp,
      stock: Type.Optional({ ...VariantFields.stock, description: "Left out: a variant kept (named by id, or the product's default) keeps the units it has when the grid is saved, whatever orders did since it was read; a new one has none" }),
      weightGrams: Type.Optional(VariantFields.weightGrams),
      dimensionsCm: Type.Optional(VariantFields.dimensionsCm),
      barcode: Type.Optional(VariantFields.barcode),
      hsnCode: Type.Optional(VariantFields.hsnCode),
      gstRateBps: Type.Optional(VariantFields.gstRateBps),
      images: Type.Optional(VariantFields.images),
      isActive: Type.Optional(VariantFields.isActive),
    }),
    { minItems: 1, maxItems: 250, description: 'Every variant, one per combination of option values (at most 250)' },
  ),
})
export const ImportReport = Type.Object({
  categories: Type.Object({ created: Type.Integer(), updated: Type.Integer() }),
  products: Type.Object({ created: Type.Integer(), updated: Type.Integer() }),
  unusedColumns: Type.Optional(
    Type.Array(Type.String(), { description: "A Shopify product CSV's columns the catalog does not keep (Tags, Published, …): read as it is, these are named, not refused" }),
  ),
})
export const QueryStat = Type.Object({ query: Type.String(), searches: Type.Integer(), averageResults: Type.Number(), lastSearchedAt: Time })
export const CatalogParams = Type.Object({ catalogId: Type.String({ maxLength: 100 }) })

/**
 * The bodies of a catalog import, for the OpenAPI document only (`documentedBody`): the route reads
 * JSON or CSV itself and checks every row (import-check.ts), naming each problem by its row, so no
 * schema validates them on the way in.
 */
const Text = (maxLength: number) => Type.String({ maxLength })
export const CatalogImportBodies = {
  'application/json': Type.Object(
    {
      categories: Type.Optional(
        Type.Array(
          Type.Object({
            slug: Text(200),
            name: Text(200),
            parentSlug: Type.Optional(Nullable(Text(200))),
            image: Type.Optional(Nullable(Text(2000))),
            position: Type.Optional(Type.Integer()),
            isActive: Type.Optional(Type.Boolean()),
            hsnCode: Type.Optional(NullableHsnCode),
            gstRateBps: Type.Optional(NullableGstRateBps),
          }),
        ),
      ),
      products: Type.Optional(
        Type.Array(
          Type.Object({
            slug: Text(200),
            name: Text(200),
            brand: Type.Optional(Text(200)),
            sku: Type.Optional(Text(100)),
            categorySlug: Text(200),
            sellingPrice: Type.Optional(MoneyInput()),
            mrp: Type.Optional(MoneyInput()),
            stock: Type.Optional(Type.Integer({ minimum: 0 })),
            images: Type.Optional(Type.Array(Text(2000))),
            description: Type.Optional(Type.String()),
            weightGrams: Type.Optional(Type.Integer({ minimum: 0 })),
            dimensionsCm: Type.Optional(Nullable(Type.Object({ length: Type.Integer({ minimum: 1 }), breadth: Type.Integer({ minimum: 1 }), height: Type.Integer({ minimum: 1 }) }))),
            isActive: Type.Optional(Type.Boolean()),
            hsnCode: Type.Optional(NullableHsnCode),
            gstRateBps: Type.Optional(NullableGstRateBps),
            options: Type.Optional(VariantGrid.properties.options),
            variants: Type.Optional(
              Type.Array(Type.Omit(VariantGrid.properties.variants.items, ['id']), {
                maxItems: 250,
                description: "Every variant of a product with options (its sku, sellingPrice, mrp and stock are then left out: their summary); replaces the stored grid as PUT /admin/products/{productId}/variants does",
              }),
            ),
          }),
        ),
      ),
    },
    { additionalProperties: false },
  ),
  'text/csv': Type.String({
    description:
      'A header line naming the columns (any order), then a product a line, or a variant a line (rows of one product share its slug: option1Name, option1Value, …, variantSku, variantSellingPrice, variantMrp, …); or a Shopify product CSV as Shopify exports it (a header naming Handle)',
    examples: ['slug,name,sku,categorySlug,sellingPrice,mrp,stock,hsnCode,gstRateBps\nsona-masoori-5kg,Sona Masoori Rice 5 kg,RICE-SM-5,staples,499.00,560.00,40,1006,500'],
  }),
}
