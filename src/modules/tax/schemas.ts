// Request and response schemas of the tax module's back office.
import { Type } from 'typebox'
import { Nullable, Pincode, Time } from '../../http/schemas.ts'

export const SellerAddress = Type.Object({
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  state: Type.String({ minLength: 1, maxLength: 100, description: "State or union territory; must be the GSTIN's" }),
  pincode: Pincode,
})

export const SellerInput = Type.Object({
  legalName: Type.String({ minLength: 1, maxLength: 200, description: 'Legal name as registered for GST' }),
  tradeName: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
  gstin: Type.String({ minLength: 1, maxLength: 20, description: '15-character GSTIN; checked: state code, PAN, entity number, Z, check character' }),
  address: SellerAddress,
})

export const Seller = Type.Object({
  catalogId: Type.String(),
  legalName: Type.String(),
  tradeName: Nullable(Type.String()),
  gstin: Type.String(),
  stateCode: Type.String({ description: 'GST state code, from the GSTIN' }),
  stateName: Type.String(),
  address: Type.Object({ line1: Type.String(), line2: Nullable(Type.String()), city: Type.String(), state: Type.String(), pincode: Type.String() }),
  createdAt: Time,
  updatedAt: Time,
})

export const RateSlab = Type.Object({
  id: Type.String(),
  rateBps: Type.Integer({ description: 'Basis points: 1800 = 18 %' }),
  cessBps: Nullable(Type.Integer()),
  label: Type.String(),
  effectiveFrom: Type.String({ format: 'date' }),
  effectiveTo: Nullable(Type.String({ format: 'date', description: 'First day no longer in force' })),
})

export const TaxProblem = Type.Union([Type.Literal('HSN_CODE_MISSING'), Type.Literal('GST_RATE_MISSING'), Type.Literal('GST_RATE_NOT_IN_FORCE')])

export const ProductTaxProblem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sku: Type.String(),
  categoryId: Type.String(),
  hsnCode: Nullable(Type.String({ description: 'As resolved: the product’s, else its category’s' })),
  gstRateBps: Nullable(Type.Integer({ description: 'As resolved: the product’s, else its category’s' })),
  problems: Type.Array(TaxProblem),
})

export const MissingTax = Type.Object({
  sellerRegistered: Type.Boolean({ description: 'Whether the catalog has a GST seller: with one, orders for these products cannot be taxed' }),
  checkedOn: Type.String({ format: 'date', description: 'The day (India) whose rates were checked' }),
  products: Type.Array(ProductTaxProblem),
})

export const CatalogParams = Type.Object({ catalogId: Type.String({ maxLength: 100 }) })
