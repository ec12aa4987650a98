// Request and response schemas of the tax module's back office.
import { Type } from 'typebox'
import { Money, Nullable, Pincode, Time } from '../../http/schemas.ts'

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

const PlaceOfSupply = Type.Object({ stateCode: Type.String(), state: Type.String(), label: Type.String({ examples: ['29-Karnataka'] }) })
const ListedDocument = {
  number: Type.String(),
  date: Type.String({ format: 'date' }),
  value: Money('The whole document, tax included'),
  placeOfSupply: PlaceOfSupply,
  rateBps: Type.Integer(),
  rate: Type.String(),
  taxableValue: Money('At this rate'),
  igst: Money('At this rate'),
}
const ReportTotals = Type.Object({ count: Type.Integer(), taxableValue: Money(), cgst: Money(), sgst: Money(), igst: Money(), total: Money() })

export const Gstr1Report = Type.Object({
  catalogId: Type.String(),
  from: Type.String({ format: 'date' }),
  to: Type.String({ format: 'date' }),
  b2cs: Type.Array(
    Type.Object({
      type: Type.Literal('OE'),
      placeOfSupply: PlaceOfSupply,
      supplyType: Type.Union([Type.Literal('INTRA_STATE'), Type.Literal('INTER_STATE')]),
      rateBps: Type.Integer(),
      rate: Type.String(),
      taxableValue: Money('Invoices less credit notes'),
      cgst: Money(),
      sgst: Money(),
      igst: Money(),
      cess: Money(),
    }),
    { description: 'B2C (small): summed by place of supply, supply type and rate, credit notes netted off' },
  ),
  b2cl: Type.Array(Type.Object(ListedDocument), { description: 'B2C (large): inter-state invoices above the limit of their date, per rate' }),
  cdnur: Type.Array(Type.Object({ ...ListedDocument, invoiceNumber: Type.String(), invoiceDate: Type.String({ format: 'date' }) }), { description: 'Credit notes against B2C (large) invoices, per rate' }),
  totals: Type.Object({ invoices: ReportTotals, creditNotes: ReportTotals, net: ReportTotals }, { description: 'Invoices less credit notes issued in the range: equals B2CS + B2CL - CDNUR' }),
})
