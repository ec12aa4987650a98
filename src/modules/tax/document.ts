// A GST document as issued (decisions 0022, 0029): a tax invoice, a bill of supply (rule 49: nil-rated
// goods, no tax) or a credit note, with everything rule 46 of the CGST Rules asks of an invoice. It is stored as issued (the seller's and buyer's details of
// its time) and answered as JSON by this schema and as PDF by invoice-pdf.ts from the same value.
// Money is rupees with two decimals, as everywhere in the API.
import { type Static, Type } from 'typebox'
import { Money, Nullable, Time } from '../../http/schemas.ts'

export const DocumentParty = Type.Object({
  name: Type.String(),
  /** Seller: legal name; the trade name is shown beside it when it has one. */
  tradeName: Nullable(Type.String()),
  /** Null for a buyer: customers are unregistered (B2C). */
  gstin: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  address: Type.Object({ line1: Type.String(), line2: Nullable(Type.String()), city: Type.String(), state: Type.String(), pincode: Type.String() }),
  stateCode: Nullable(Type.String({ description: 'GST state code of the address' })),
})

export const DocumentLine = Type.Object({
  position: Type.Integer({ description: '1, 2, 3… in the order of the order lines, then shipping and the COD fee' }),
  kind: Type.Union([Type.Literal('GOODS'), Type.Literal('SHIPPING'), Type.Literal('COD_FEE')]),
  description: Type.String(),
  hsnCode: Type.String(),
  quantity: Type.Integer(),
  unit: Type.String({ description: 'Unit quantity code: NOS (numbers) for goods, OTH for charges' }),
  unitPrice: Money('Price of one unit, tax included'),
  amount: Money('Quantity x unit price, tax included'),
  discount: Money("The line's share of the coupon"),
  taxableValue: Money('Amount less discount, less tax'),
  gstRateBps: Type.Integer({ description: 'Basis points: 1800 = 18 %' }),
  gstRate: Type.String({ examples: ['18%'] }),
  cgst: Money(),
  sgst: Money(),
  igst: Money(),
  total: Money('Taxable value + taxes'),
})

export const TaxDocument = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('TAX_INVOICE'), Type.Literal('BILL_OF_SUPPLY'), Type.Literal('CREDIT_NOTE')], { description: 'A bill of supply is issued instead of a tax invoice for nil-rated goods; a credit note reverses either' }),
  number: Type.String({ description: 'Consecutive in its series per GST registration (GSTIN) and financial year, at most 16 characters', examples: ['IN/26-27/0000123'] }),
  financialYear: Type.String({ examples: ['2026-27'] }),
  issuedAt: Time,
  date: Type.String({ format: 'date', description: 'Day of issue in India' }),
  orderId: Type.String(),
  orderNumber: Type.String(),
  /** Credit notes: the document (tax invoice or bill of supply) they reverse, and why. */
  invoice: Nullable(Type.Object({ id: Type.String(), number: Type.String(), date: Type.String({ format: 'date' }) })),
  reason: Nullable(Type.String()),
  seller: DocumentParty,
  buyer: DocumentParty,
  /** Goods: where the movement ends (the shipping address's state). */
  placeOfSupply: Type.Object({ state: Type.String(), stateCode: Type.String() }),
  intraState: Type.Boolean({ description: 'CGST + SGST when true, IGST otherwise' }),
  reverseCharge: Type.Boolean({ description: 'Whether tax is payable on reverse charge: never for these supplies' }),
  lines: Type.Array(DocumentLine),
  totals: Type.Object({
    taxableValue: Money(),
    cgst: Money(),
    sgst: Money(),
    igst: Money(),
    tax: Money('cgst + sgst + igst'),
    total: Money('Taxable value + tax: what the document is for'),
  }),
  amountInWords: Type.String({ examples: ['Rupees One Thousand Two Hundred Ninety-Nine and Fifty Paise Only'] }),
})

export type TaxDocument = Static<typeof TaxDocument>
export type DocumentLine = Static<typeof DocumentLine>
