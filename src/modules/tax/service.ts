// GST rates in force (data with dates), GST registrations and the one each catalog sells under, and
// the check of which products cannot be taxed yet. Decisions 0021, 0029.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { checkGstin, GST_CODES_WITHOUT_STATE, GST_STATE_CODES } from '../../lib/gstin.ts'
import { newId } from '../../lib/ids.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { sameState, statesForPincodePrefix } from '../../lib/pincode-states.ts'
import { activeProductsTax, findCatalog } from '../catalog/index.ts'
import { financialYearOf, GST_BEGAN, indiaDay } from './calendar.ts'
import { numberWaitingDocuments, serialWidth } from './documents.ts'
import { checkReturnPeriod, gstr1Report, type ReturnPeriod } from './gstr1.ts'
import { type RateSlabRow, type RegistrationRow, registrationRepo, type SellerRow, taxRepo } from './repo.ts'

type Address = { line1: string; line2?: string | null; city: string; state: string; pincode: string }

export interface SellerInput {
  legalName: string
  tradeName?: string | null
  gstin: string
  address: Address
}

export interface Prefixes {
  invoice?: string
  billOfSupply?: string
  creditNote?: string
}

export interface RegistrationInput extends SellerInput {
  prefixes?: Prefixes
  filingFrequency?: 'MONTHLY' | 'QUARTERLY'
}

export type RegistrationChanges = Partial<Omit<RegistrationInput, 'gstin'>>

export type TaxProblem = 'HSN_CODE_MISSING' | 'GST_RATE_MISSING' | 'GST_RATE_NOT_IN_FORCE'

const toSlab = (row: RateSlabRow) => ({
  id: row.id,
  rateBps: row.rateBps,
  cessBps: row.cessBps,
  label: row.label,
  effectiveFrom: row.effectiveFrom,
  effectiveTo: row.effectiveTo,
})

/** Who a registration is: names, GSTIN, state and registered address. */
const registered = (row: RegistrationRow) => ({
  legalName: row.legalName,
  tradeName: row.tradeName,
  gstin: row.gstin,
  stateCode: row.stateCode,
  stateName: GST_STATE_CODES[row.stateCode] ?? row.stateCode,
  address: { line1: row.addressLine1, line2: row.addressLine2, city: row.city, state: row.state, pincode: row.pincode },
})

function toRegistration(row: RegistrationRow, catalogIds: string[]) {
  return {
    id: row.id,
    ...registered(row),
    prefixes: { invoice: row.invoicePrefix, billOfSupply: row.billOfSupplyPrefix, creditNote: row.creditNotePrefix },
    filingFrequency: row.filingFrequency,
    catalogIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

function toSeller(row: SellerRow) {
  return {
    catalogId: row.catalogId,
    registrationId: row.id,
    ...registered(row),
    createdAt: row.linkedAt.toISOString(),
    updatedAt: (row.updatedAt > row.linkUpdatedAt ? row.updatedAt : row.linkUpdatedAt).toISOString(),
  }
}

/** The GSTIN checked rule by rule, of a state (97 and 99 name none), and the address in that state. */
function checkedRegistration(input: SellerInput) {
  const gstin = checkGstin(input.gstin)
  if (!gstin.valid) throw new AppError('BAD_REQUEST', `gstin ${gstin.problem}`)
  if (GST_CODES_WITHOUT_STATE.has(gstin.stateCode)) {
    throw new AppError('BAD_REQUEST', `gstin state code ${gstin.stateCode} (${gstin.stateName}) names no state: a seller of goods registers in a state or union territory`)
  }
  checkAddress(input.address, gstin.stateCode, gstin.stateName)
  return gstin
}

function checkAddress(address: Address, stateCode: string, stateName: string) {
  if (!sameState(address.state, stateName)) {
    throw new AppError('BAD_REQUEST', `address.state ${address.state.trim()} does not match the GSTIN's state code ${stateCode} (${stateName})`)
  }
  const pincodeStates = statesForPincodePrefix(address.pincode)
  if (pincodeStates.length > 0 && !pincodeStates.some((s) => sameState(s, address.state))) {
    throw new AppError('BAD_REQUEST', `address.state ${address.state.trim()} does not match address.pincode ${address.pincode} (${pincodeStates.join(' or ')})`)
  }
}

const addressColumns = (address: Address) => ({
  addressLine1: address.line1.trim(),
  addressLine2: address.line2?.trim() || null,
  city: address.city.trim(),
  state: address.state.trim(),
  pincode: address.pincode,
})


export { indiaDay }

export class TaxService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  /** `sellerChanged` runs after a seller is written: checkout caches sellers (app.ts wires it). */
  readonly #sellerChanged: () => Promise<void>
  constructor(
    { database, clock }: ServiceDeps,
    sellerChanged: () => Promise<void> = async () => {},
  ) {
    this.#sellerChanged = sellerChanged
    this.#db = database.db
    this.#clock = clock
  }

  /** Numbers every tax invoice and bill of supply still waiting for its number (decision 0045); the server's job timer runs it. */
  numberWaitingDocuments(): Promise<void> {
    return numberWaitingDocuments(this.#db)
  }

  /** The rate slabs in force on `day` (YYYY-MM-DD, India), default today. */
  async slabsInForce(day?: string) {
    return (await taxRepo.slabsInForce(this.#db, day ?? indiaDay(this.#clock.now()))).map(toSlab)
  }

  /** The distinct GST rates (basis points) in force on the day in India of `instant`, ascending. */
  async ratesInForce(instant: Date): Promise<number[]> {
    const slabs = await taxRepo.slabsInForce(this.#db, indiaDay(instant))
    return [...new Set(slabs.map((s) => s.rateBps))]
  }

  /** The slab of `rateBps` in force at `instant` (the latest that started), or null: what a sale at that time is taxed by. */
  async rateAt(rateBps: number, instant: Date) {
    const slabs = (await taxRepo.slabsInForce(this.#db, indiaDay(instant))).filter((s) => s.rateBps === rateBps)
    return slabs.length > 0 ? toSlab(slabs[slabs.length - 1]!) : null
  }

  async getSeller(catalogId: string) {
    await this.#catalogOrThrow(catalogId)
    const row = await taxRepo.findSeller(this.#db, catalogId)
    if (!row) throw new AppError('NOT_FOUND', 'No GST seller is registered for this catalog')
    return toSeller(row)
  }

  /**
   * Points the catalog at the registration of `input.gstin`: created if no catalog uses that GSTIN yet,
   * its names and address brought up to date otherwise (one GSTIN is one registration, whichever
   * catalog writes it). The catalog's later documents are issued by it; past ones stay as they were.
   */
  async putSeller(catalogId: string, input: SellerInput) {
    await this.#catalogOrThrow(catalogId)
    const gstin = checkedRegistration(input)
    const now = this.#clock.now()
    await this.#db.transaction(async (tx) => {
      const existing = await registrationRepo.findByGstin(tx, gstin.gstin)
      const details = { legalName: input.legalName.trim(), tradeName: input.tradeName?.trim() || null, ...addressColumns(input.address), updatedAt: now }
      const registration = existing
        ? await registrationRepo.update(tx, existing.id, details)
        : ((await registrationRepo.insert(tx, { id: newId('gsr', now.getTime()), gstin: gstin.gstin, stateCode: gstin.stateCode, ...details, createdAt: now })) ?? (await registrationRepo.findByGstin(tx, gstin.gstin))!)
      await taxRepo.linkCatalog(tx, catalogId, registration.id, now)
    })
    await this.#sellerChanged()
    return this.getSeller(catalogId)
  }

  /** Points the catalog at an existing registration (404 if there is none). */
  async linkCatalog(catalogId: string, registrationId: string) {
    await this.#catalogOrThrow(catalogId)
    if (!(await registrationRepo.find(this.#db, registrationId))) throw new AppError('NOT_FOUND', 'GST registration not found')
    await taxRepo.linkCatalog(this.#db, catalogId, registrationId, this.#clock.now())
    await this.#sellerChanged()
    return this.getSeller(catalogId)
  }

  async listRegistrations(search: string | undefined, page: { page: number; limit: number }) {
    const { rows, total } = await registrationRepo.page(this.#db, search?.trim() || undefined, { limit: page.limit, offset: (page.page - 1) * page.limit })
    const catalogs = await registrationRepo.catalogsOf(
      this.#db,
      rows.map((r) => r.id),
    )
    return { data: rows.map((r) => toRegistration(r, catalogs.get(r.id)!)), meta: pageMeta(total, page) }
  }

  async getRegistration(id: string) {
    const row = await registrationRepo.find(this.#db, id)
    if (!row) throw new AppError('NOT_FOUND', 'GST registration not found')
    return toRegistration(row, (await registrationRepo.catalogsOf(this.#db, [id])).get(id)!)
  }

  /** A new registration (409 when its GSTIN is registered already: one GSTIN is one registration). */
  async createRegistration(input: RegistrationInput) {
    const gstin = checkedRegistration(input)
    const prefixes = checkPrefixes({ invoice: 'IN', billOfSupply: 'BS', creditNote: 'CN', ...input.prefixes }, new Map())
    const now = this.#clock.now()
    const row = await registrationRepo.insert(this.#db, {
      id: newId('gsr', now.getTime()),
      gstin: gstin.gstin,
      stateCode: gstin.stateCode,
      legalName: input.legalName.trim(),
      tradeName: input.tradeName?.trim() || null,
      ...addressColumns(input.address),
      ...prefixes,
      filingFrequency: input.filingFrequency ?? 'MONTHLY',
      createdAt: now,
      updatedAt: now,
    })
    if (!row) throw new AppError('CONFLICT', `GSTIN ${gstin.gstin} is registered already`)
    return toRegistration(row, [])
  }

  /**
   * Changes names, address, prefixes or filing frequency; the GSTIN never changes (another GSTIN is
   * another registration). A prefix applies to the documents issued after it; their serials go on.
   */
  async updateRegistration(id: string, changes: RegistrationChanges) {
    if (Object.values(changes).every((v) => v === undefined)) throw new AppError('BAD_REQUEST', 'Send at least one of legalName, tradeName, address, prefixes, filingFrequency')
    const row = await registrationRepo.find(this.#db, id)
    if (!row) throw new AppError('NOT_FOUND', 'GST registration not found')
    if (changes.address) checkAddress(changes.address, row.stateCode, GST_STATE_CODES[row.stateCode]!)
    const prefixes = changes.prefixes
      ? checkPrefixes({ invoice: row.invoicePrefix, billOfSupply: row.billOfSupplyPrefix, creditNote: row.creditNotePrefix, ...changes.prefixes }, await registrationRepo.lastSerials(this.#db, id, financialYearOf(indiaDay(this.#clock.now()))))
      : {}
    const saved = await registrationRepo.update(this.#db, id, {
      ...(changes.legalName !== undefined ? { legalName: changes.legalName.trim() } : {}),
      ...(changes.tradeName !== undefined ? { tradeName: changes.tradeName?.trim() || null } : {}),
      ...(changes.address ? addressColumns(changes.address) : {}),
      ...prefixes,
      ...(changes.filingFrequency ? { filingFrequency: changes.filingFrequency } : {}),
      updatedAt: this.#clock.now(),
    })
    await this.#sellerChanged()
    return toRegistration(saved, (await registrationRepo.catalogsOf(this.#db, [id])).get(id)!)
  }

  /**
   * The active products of a catalog that cannot be taxed today: no HSN code or no rate (their own
   * or their category's), or a rate no longer in force (12 % after 21 September 2025). Orders for
   * them will be refused once the catalog has a seller; the list is given either way.
   */
  async missingTax(catalogId: string, page: { page: number; limit: number }) {
    await this.#catalogOrThrow(catalogId)
    const checkedOn = indiaDay(this.#clock.now())
    const [seller, slabs, products] = await Promise.all([
      taxRepo.findSeller(this.#db, catalogId),
      taxRepo.slabsInForce(this.#db, checkedOn),
      activeProductsTax(this.#db, catalogId),
    ])
    const inForce = new Set(slabs.map((s) => s.rateBps))
    const withProblems = products
      .map((p) => {
        const problems: TaxProblem[] = []
        if (p.hsnCode === null) problems.push('HSN_CODE_MISSING')
        if (p.gstRateBps === null) problems.push('GST_RATE_MISSING')
        else if (!inForce.has(p.gstRateBps)) problems.push('GST_RATE_NOT_IN_FORCE')
        return { id: p.id, name: p.name, sku: p.sku, categoryId: p.categoryId, hsnCode: p.hsnCode, gstRateBps: p.gstRateBps, problems }
      })
      .filter((p) => p.problems.length > 0)
    const start = (page.page - 1) * page.limit
    return {
      data: { sellerRegistered: seller !== null, checkedOn, products: withProblems.slice(start, start + page.limit) },
      meta: pageMeta(withProblems.length, page),
    }
  }

  /** The GSTR-1 style report of the catalog's registration (all its catalogs) for days from..to (India, inclusive). */
  async gstr1(catalogId: string, from: string, to: string) {
    await this.#catalogOrThrow(catalogId)
    // GST began on 1 July 2017; an earlier day (year 0000 among them, which PostgreSQL has no date for) has nothing to report.
    if (from < GST_BEGAN) throw new AppError('BAD_REQUEST', `from must be on or after ${GST_BEGAN}, when GST began`)
    if (from > to) throw new AppError('BAD_REQUEST', `from ${from} is after to ${to}`)
    const seller = await taxRepo.findSeller(this.#db, catalogId)
    if (!seller) throw new AppError('NOT_FOUND', 'No GST seller is registered for this catalog')
    return gstr1Report(this.#db, seller, { fp: null, from, to })
  }

  /**
   * GSTR-1 of a GSTIN for a return period `fp` (MMYYYY: a month, or the last month of a quarter for a
   * quarterly filer), from the documents that registration issued on those days. Each input the
   * caller can get wrong is a 400 naming it.
   */
  async gstr1OfGstin(gstinInput: string, fp: string) {
    const gstin = gstinInput.trim().toUpperCase()
    const registration = await registrationRepo.findByGstin(this.#db, gstin)
    if (!registration) throw new AppError('BAD_REQUEST', `gstin ${gstin} is not a GST registration of this service`)
    const period: ReturnPeriod = checkReturnPeriod(fp, registration.filingFrequency, indiaDay(this.#clock.now()))
    return gstr1Report(this.#db, registration, period)
  }

  async #catalogOrThrow(catalogId: string) {
    if (!(await findCatalog(this.#db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  }
}

/**
 * A registration's series prefixes, checked: 1-4 capital letters, digits or `-` (rule 46 allows
 * letters, digits, `-` and `/`, and `/` separates the year), different from each other, and short
 * enough for the serials this financial year has reached.
 */
function checkPrefixes(p: Required<Prefixes>, lastSerials: Map<string, number>) {
  const named = [['invoice', p.invoice, 'IN'], ['billOfSupply', p.billOfSupply, 'BS'], ['creditNote', p.creditNote, 'CN']] as const
  for (const [field, prefix, series] of named) {
    if (!/^[A-Z0-9-]{1,4}$/.test(prefix)) throw new AppError('BAD_REQUEST', `prefixes.${field} must be 1-4 capital letters, digits or -`)
    const last = lastSerials.get(series) ?? 0
    if (String(last + 1).length > serialWidth(prefix)) throw new AppError('BAD_REQUEST', `prefixes.${field} ${prefix} leaves ${serialWidth(prefix)} digits for the serial, and this year's series is at ${last}`)
  }
  if (new Set([p.invoice, p.billOfSupply, p.creditNote]).size < 3) throw new AppError('BAD_REQUEST', 'prefixes.invoice, prefixes.billOfSupply and prefixes.creditNote must differ')
  return { invoicePrefix: p.invoice, billOfSupplyPrefix: p.billOfSupply, creditNotePrefix: p.creditNote }
}

/** What checkout needs of a catalog's GST seller: where it is registered. Null: no registered seller (no tax is charged). */
export async function gstSellerOf(db: Executor, catalogId: string): Promise<{ gstin: string; stateCode: string; state: string } | null> {
  const row = await taxRepo.findSeller(db, catalogId)
  return row ? { gstin: row.gstin, stateCode: row.stateCode, state: row.state } : null
}

/** A GST registration's GSTIN and state, by its id (a stock location ships under one: decision 0043). Null: none such. */
export async function gstRegistrationOf(db: Executor, id: string): Promise<{ gstin: string; stateCode: string; state: string } | null> {
  const row = await registrationRepo.find(db, id)
  return row ? { gstin: row.gstin, stateCode: row.stateCode, state: row.state } : null
}

/** Where a catalog's parcels come back to: its GST seller's name and registered address (null: no seller). */
export async function sellerReturnAddressOf(db: Executor, catalogId: string): Promise<{ name: string; address: string } | null> {
  const row = await taxRepo.findSeller(db, catalogId)
  if (!row) return null
  const parts = [row.addressLine1, row.addressLine2, row.city, `${row.state} ${row.pincode}`].filter((p): p is string => Boolean(p))
  return { name: row.tradeName ?? row.legalName, address: parts.join(', ') }
}

/** The GST rates (basis points) in force on the day in India of `instant`: a sale at that instant may be taxed only at one of them. */
export async function gstRatesInForceAt(db: Executor, instant: Date): Promise<Set<number>> {
  return new Set((await taxRepo.slabsInForce(db, indiaDay(instant))).map((s) => s.rateBps))
}
