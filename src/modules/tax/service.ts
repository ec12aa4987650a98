// GST rates in force (data with dates), the GST seller of each catalog, and the check of which
// products cannot be taxed yet. Decision 0021.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { checkGstin, GST_CODES_WITHOUT_STATE, GST_STATE_CODES } from '../../lib/gstin.ts'
import { pageMeta } from '../../lib/pagination.ts'
import { sameState, statesForPincodePrefix } from '../../lib/pincode-states.ts'
import { activeProductsTax, findCatalog } from '../catalog/index.ts'
import { gstr1Report } from './gstr1.ts'
import { type RateSlabRow, type SellerRow, taxRepo } from './repo.ts'

/** Indian Standard Time is UTC+05:30 all year; a rate changes at midnight in India. */
const IST_OFFSET_MS = 330 * 60_000

/** The calendar day in India (YYYY-MM-DD) at `instant`: the day whose rates apply. */
export function indiaDay(instant: Date): string {
  return new Date(instant.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10)
}

export interface SellerInput {
  legalName: string
  tradeName?: string | null
  gstin: string
  address: { line1: string; line2?: string | null; city: string; state: string; pincode: string }
}

export type TaxProblem = 'HSN_CODE_MISSING' | 'GST_RATE_MISSING' | 'GST_RATE_NOT_IN_FORCE'

const toSlab = (row: RateSlabRow) => ({
  id: row.id,
  rateBps: row.rateBps,
  cessBps: row.cessBps,
  label: row.label,
  effectiveFrom: row.effectiveFrom,
  effectiveTo: row.effectiveTo,
})

function toSeller(row: SellerRow) {
  return {
    catalogId: row.catalogId,
    legalName: row.legalName,
    tradeName: row.tradeName,
    gstin: row.gstin,
    stateCode: row.stateCode,
    stateName: GST_STATE_CODES[row.stateCode] ?? row.stateCode,
    address: { line1: row.addressLine1, line2: row.addressLine2, city: row.city, state: row.state, pincode: row.pincode },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

const GST_BEGAN = '2017-07-01'

export class TaxService {
  private readonly db: Db
  private readonly clock: Deps['clock']

  /** `sellerChanged` runs after a seller is written: checkout caches sellers (app.ts wires it). */
  constructor(
    { database, clock }: Deps,
    private readonly sellerChanged: () => Promise<void> = async () => {},
  ) {
    this.db = database.db
    this.clock = clock
  }

  /** The rate slabs in force on `day` (YYYY-MM-DD, India), default today. */
  async slabsInForce(day?: string) {
    return (await taxRepo.slabsInForce(this.db, day ?? indiaDay(this.clock.now()))).map(toSlab)
  }

  /** The distinct GST rates (basis points) in force on the day in India of `instant`, ascending. */
  async ratesInForce(instant: Date): Promise<number[]> {
    const slabs = await taxRepo.slabsInForce(this.db, indiaDay(instant))
    return [...new Set(slabs.map((s) => s.rateBps))]
  }

  /** The slab of `rateBps` in force at `instant` (the latest that started), or null: what a sale at that time is taxed by. */
  async rateAt(rateBps: number, instant: Date) {
    const slabs = (await taxRepo.slabsInForce(this.db, indiaDay(instant))).filter((s) => s.rateBps === rateBps)
    return slabs.length > 0 ? toSlab(slabs[slabs.length - 1]!) : null
  }

  async getSeller(catalogId: string) {
    await this.catalogOrThrow(catalogId)
    const row = await taxRepo.findSeller(this.db, catalogId)
    if (!row) throw new AppError('NOT_FOUND', 'No GST seller is registered for this catalog')
    return toSeller(row)
  }

  /**
   * Registers (or replaces) the catalog's seller. The GSTIN is checked rule by rule; its state code
   * must name the state of the registered address, and the address's pincode must be in that state.
   */
  async putSeller(catalogId: string, input: SellerInput) {
    await this.catalogOrThrow(catalogId)
    const gstin = checkGstin(input.gstin)
    if (!gstin.valid) throw new AppError('BAD_REQUEST', `gstin ${gstin.problem}`)
    if (GST_CODES_WITHOUT_STATE.has(gstin.stateCode)) {
      throw new AppError('BAD_REQUEST', `gstin state code ${gstin.stateCode} (${gstin.stateName}) names no state: a seller of goods registers in a state or union territory`)
    }
    const { address } = input
    if (!sameState(address.state, gstin.stateName)) {
      throw new AppError('BAD_REQUEST', `address.state ${address.state.trim()} does not match the GSTIN's state code ${gstin.stateCode} (${gstin.stateName})`)
    }
    const pincodeStates = statesForPincodePrefix(address.pincode)
    if (pincodeStates.length > 0 && !pincodeStates.some((s) => sameState(s, address.state))) {
      throw new AppError('BAD_REQUEST', `address.state ${address.state.trim()} does not match address.pincode ${address.pincode} (${pincodeStates.join(' or ')})`)
    }
    const now = this.clock.now()
    const row = await taxRepo.upsertSeller(this.db, {
      catalogId,
      legalName: input.legalName.trim(),
      tradeName: input.tradeName?.trim() || null,
      gstin: gstin.gstin,
      stateCode: gstin.stateCode,
      addressLine1: address.line1.trim(),
      addressLine2: address.line2?.trim() || null,
      city: address.city.trim(),
      state: address.state.trim(),
      pincode: address.pincode,
      createdAt: now,
      updatedAt: now,
    })
    await this.sellerChanged()
    return toSeller(row)
  }

  /**
   * The active products of a catalog that cannot be taxed today: no HSN code or no rate (their own
   * or their category's), or a rate no longer in force (12 % after 21 September 2025). Orders for
   * them will be refused once the catalog has a seller; the list is given either way.
   */
  async missingTax(catalogId: string, page: { page: number; limit: number }) {
    await this.catalogOrThrow(catalogId)
    const checkedOn = indiaDay(this.clock.now())
    const [seller, slabs, products] = await Promise.all([
      taxRepo.findSeller(this.db, catalogId),
      taxRepo.slabsInForce(this.db, checkedOn),
      activeProductsTax(this.db, catalogId),
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

  /** The GSTR-1 style B2C report of the catalog's seller for days from..to (India, inclusive). */
  async gstr1(catalogId: string, from: string, to: string) {
    await this.catalogOrThrow(catalogId)
    // GST began on 1 July 2017; an earlier day (year 0000 among them, which PostgreSQL has no date for) has nothing to report.
    if (from < GST_BEGAN) throw new AppError('BAD_REQUEST', `from must be on or after ${GST_BEGAN}, when GST began`)
    if (from > to) throw new AppError('BAD_REQUEST', `from ${from} is after to ${to}`)
    if (!(await taxRepo.findSeller(this.db, catalogId))) throw new AppError('NOT_FOUND', 'No GST seller is registered for this catalog')
    return gstr1Report(this.db, catalogId, from, to)
  }

  private async catalogOrThrow(catalogId: string) {
    if (!(await findCatalog(this.db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  }
}

/** What checkout needs of a catalog's GST seller: where it is registered. Null: no registered seller (no tax is charged). */
export async function gstSellerOf(db: Executor, catalogId: string): Promise<{ stateCode: string; state: string } | null> {
  const row = await taxRepo.findSeller(db, catalogId)
  return row ? { stateCode: row.stateCode, state: row.state } : null
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
