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
  registrationId: Type.String({ description: 'The GST registration the catalog sells under: it issues and numbers the documents' }),
  legalName: Type.String(),
  tradeName: Nullable(Type.String()),
  gstin: Type.String(),
  stateCode: Type.String({ description: 'GST state code, from the GSTIN' }),
  stateName: Type.String(),
  address: Type.Object({ line1: Type.String(), line2: Nullable(Type.String()), city: Type.String(), state: Type.String(), pincode: Type.String() }),
  createdAt: Time,
  updatedAt: Time,
})

const Prefix = Type.String({ minLength: 1, maxLength: 4, pattern: '^[A-Z0-9-]+$', description: '1-4 capital letters, digits or -; the number is prefix/YY-YY/serial, at most 16 characters' })
const Prefixes = Type.Object(
  { invoice: Type.Optional(Prefix), billOfSupply: Type.Optional(Prefix), creditNote: Type.Optional(Prefix) },
  { additionalProperties: false, description: 'Series prefixes (default IN, BS, CN); a change applies to later documents, the serials go on' },
)
const FilingFrequency = Type.Union([Type.Literal('MONTHLY'), Type.Literal('QUARTERLY')], { description: 'GSTR-1 every month, or every quarter (QRMP)' })

export const RegistrationInput = Type.Object({
  ...SellerInput.properties,
  prefixes: Type.Optional(Prefixes),
  filingFrequency: Type.Optional(FilingFrequency),
})

export const RegistrationPatch = Type.Object({
  legalName: Type.Optional(SellerInput.properties.legalName),
  tradeName: SellerInput.properties.tradeName,
  address: Type.Optional(SellerAddress),
  prefixes: Type.Optional(Prefixes),
  filingFrequency: Type.Optional(FilingFrequency),
})

export const Registration = Type.Object({
  id: Type.String(),
  gstin: Type.String(),
  legalName: Type.String(),
  tradeName: Nullable(Type.String()),
  stateCode: Type.String({ description: 'GST state code, from the GSTIN' }),
  stateName: Type.String(),
  address: Type.Object({ line1: Type.String(), line2: Nullable(Type.String()), city: Type.String(), state: Type.String(), pincode: Type.String() }),
  prefixes: Type.Object({ invoice: Type.String(), billOfSupply: Type.String(), creditNote: Type.String() }),
  filingFrequency: FilingFrequency,
  catalogIds: Type.Array(Type.String(), { description: 'The catalogs selling under it now' }),
  createdAt: Time,
  updatedAt: Time,
})

export const RegistrationParams = Type.Object({ registrationId: Type.String({ maxLength: 100 }) })

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


const Series = Type.Object({
  documentType: Type.Union([Type.Literal('TAX_INVOICE'), Type.Literal('BILL_OF_SUPPLY'), Type.Literal('CREDIT_NOTE')]),
  from: Type.String({ description: 'First number issued in the period' }),
  to: Type.String({ description: 'Last number issued in the period' }),
  total: Type.Integer(),
  cancelled: Type.Integer({ description: 'Always 0: a document is never cancelled here; a credit note reverses it' }),
  netIssued: Type.Integer(),
})

export const Gstr1Report = Type.Object({
  gstin: Type.String({ description: 'The registration whose documents these are' }),
  legalName: Type.String(),
  catalogId: Nullable(Type.String({ description: 'The catalog asked about (the catalog report); null for a GSTIN report' })),
  fp: Nullable(Type.String({ description: 'Return period MMYYYY; null for a date range' })),
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
    { description: 'Table 7, B2C (others): taxed lines summed by place of supply, supply type and rate, credit notes netted off' },
  ),
  b2cl: Type.Array(Type.Object(ListedDocument), { description: 'Table 5, B2C (large): inter-state invoices above the limit of their date, per rate' }),
  cdnur: Type.Array(Type.Object({ ...ListedDocument, invoiceNumber: Type.String(), invoiceDate: Type.String({ format: 'date' }) }), { description: 'Table 9B: credit notes against B2C (large) invoices, per rate' }),
  nil: Type.Array(
    Type.Object({ supplyType: Type.Union([Type.Literal('INTRA_STATE'), Type.Literal('INTER_STATE')]), nilRated: Money('Less credit notes'), exempted: Money(), nonGst: Money() }),
    { description: 'Table 8: nil-rated supplies to unregistered buyers (every 0 % line is filed as nil-rated; exempt and non-GST goods are not told apart yet)' },
  ),
  hsn: Type.Object(
    {
      b2b: Type.Array(Type.Object({}), { maxItems: 0, examples: [[]], description: 'Always empty: buyers are unregistered' }),
      b2c: Type.Array(
        Type.Object({
          hsnCode: Type.String(),
          description: Type.String({ maxLength: 30 }),
          uqc: Type.String({ description: 'NOS for goods (counted in numbers), NA for services' }),
          quantity: Type.Integer({ description: 'Units of goods, less credited units; shipping and the COD fee add value, not quantity' }),
          rateBps: Type.Integer(),
          rate: Type.String(),
          taxableValue: Money(),
          cgst: Money(),
          sgst: Money(),
          igst: Money(),
          cess: Money(),
        }),
      ),
    },
    { description: 'Table 12: by HSN code and rate, credit notes netted off' },
  ),
  documentsIssued: Type.Array(
    Type.Object({ docNum: Type.Integer({ description: "The portal's nature of document: 1 invoices for outward supply (tax invoices and bills of supply), 5 credit notes" }), nature: Type.String(), series: Type.Array(Series) }),
    { description: 'Table 13: each series issued in the period' },
  ),
  ecoSupplies: Type.Array(
    Type.Object({ ecoGstin: Type.String(), netValue: Money('Taxable value less credit notes'), igst: Money(), cgst: Money(), sgst: Money(), cess: Money() }),
    { description: 'Table 14(a): supplies through e-commerce operators that collect the payment (TCS, section 52), by operator' },
  ),
  totals: Type.Object(
    { invoices: ReportTotals, billsOfSupply: ReportTotals, creditNotes: ReportTotals, net: ReportTotals },
    { description: 'Documents issued in the period; net taxable value = b2cs + b2cl + nil - cdnur' },
  ),
})

export const Gstr1Query = Type.Object({
  gstin: Type.String({ minLength: 1, maxLength: 20, description: 'A GSTIN registered here' }),
  fp: Type.String({ minLength: 1, maxLength: 10, description: 'Return period MMYYYY: a month, or the last month of a quarter for a quarterly (QRMP) filer', examples: ['112026'] }),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('portal')], { description: 'json (the default, in the envelope), csv, or portal: the file the GST offline tool imports' }),
  ),
})

const Amount = Type.Number({ description: 'Rupees, at most two decimals' })
const PortalRate = Type.Number({ description: 'Per cent: 5, 18, 0.25' })
const PortalDate = Type.String({ pattern: '^\\d{2}-\\d{2}-\\d{4}$', description: 'dd-mm-yyyy' })
const StateCode = Type.String({ pattern: '^\\d{2}$' })
const PortalItems = Type.Array(Type.Object({ num: Type.Integer({ minimum: 1 }), itm_det: Type.Object({ rt: PortalRate, txval: Amount, iamt: Amount, csamt: Amount }) }))
const PortalHsnRow = Type.Object({
  num: Type.Integer({ minimum: 1 }),
  hsn_sc: Type.String(),
  desc: Type.String({ maxLength: 30 }),
  uqc: Type.String(),
  qty: Type.Number(),
  rt: PortalRate,
  txval: Amount,
  iamt: Amount,
  camt: Amount,
  samt: Amount,
  csamt: Amount,
})

export const Gstr1PortalFile = Type.Object(
  {
    gstin: Type.String(),
    fp: Type.String({ pattern: '^(0[1-9]|1[0-2])\\d{4}$' }),
    version: Type.String(),
    hash: Type.String(),
    b2cs: Type.Optional(
      Type.Array(
        Type.Object({ sply_ty: Type.Union([Type.Literal('INTRA'), Type.Literal('INTER')]), pos: StateCode, typ: Type.Literal('OE'), rt: PortalRate, txval: Amount, iamt: Amount, camt: Amount, samt: Amount, csamt: Amount }),
      ),
    ),
    b2cl: Type.Optional(Type.Array(Type.Object({ pos: StateCode, inv: Type.Array(Type.Object({ inum: Type.String({ maxLength: 16 }), idt: PortalDate, val: Amount, itms: PortalItems })) }))),
    cdnur: Type.Optional(
      Type.Array(Type.Object({ typ: Type.Literal('B2CL'), ntty: Type.Literal('C'), nt_num: Type.String({ maxLength: 16 }), nt_dt: PortalDate, val: Amount, pos: StateCode, itms: PortalItems })),
    ),
    nil: Type.Optional(Type.Object({ inv: Type.Array(Type.Object({ sply_ty: Type.Union([Type.Literal('INTRAB2C'), Type.Literal('INTRB2C')]), nil_amt: Amount, expt_amt: Amount, ngsup_amt: Amount })) })),
    hsn: Type.Optional(
      Type.Union([
        Type.Object({ hsn_b2b: Type.Array(PortalHsnRow, { maxItems: 0, examples: [[]] }), hsn_b2c: Type.Array(PortalHsnRow) }, { description: 'Return periods from May 2025' }),
        Type.Object({ data: Type.Array(PortalHsnRow) }, { description: 'Return periods before May 2025' }),
      ]),
    ),
    doc_issue: Type.Optional(
      Type.Object({
        doc_det: Type.Array(
          Type.Object({
            doc_num: Type.Integer(),
            doc_typ: Type.String(),
            docs: Type.Array(Type.Object({ num: Type.Integer({ minimum: 1 }), from: Type.String(), to: Type.String(), totnum: Type.Integer(), cancel: Type.Integer(), net_issue: Type.Integer() })),
          }),
        ),
      }),
    ),
    supeco: Type.Optional(Type.Object({ clttx: Type.Array(Type.Object({ etin: Type.String(), suppval: Amount, igst: Amount, cgst: Amount, sgst: Amount, cess: Amount })) })),
  },
  { additionalProperties: false, description: "GSTR-1 as the GST portal's offline tool imports it (keys as the portal names them; amounts in rupees as numbers; dates dd-mm-yyyy); empty tables are left out" },
)
