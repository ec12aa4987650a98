// The back office's stock locations (decision 0043, step 5): making and editing locations (the
// first one takes the catalog's stock as its opening balance and keeps it at locations from then
// on), receiving and adjusting units at a location, transfers between two, the levels and the ledger.
// Every change of a level is one move in the ledger, in the transaction that makes it.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { type Page, pageMeta } from '../../lib/pagination.ts'
import { sameState, statesForPincodePrefix } from '../../lib/pincode-states.ts'
import { catalogExists, keepStockAtLocations, moveUnitStock, type StockUnit, stockUnitNames, stockUnitOf, unitsInStock } from '../catalog/index.ts'
import { gstRegistrationOf, gstSellerOf } from '../tax/index.ts'
import { sawFirstLocation } from './orders.ts'
import { inventoryRepo, type LocationRow } from './repo.ts'
import type { MoveKind } from './schema.sql.ts'

export interface LocationInput {
  name?: string
  addressLine1?: string
  city?: string
  state?: string
  pincode?: string
  registrationId?: string | null
  pickupName?: string | null
  position?: number
  isActive?: boolean
}

export class InventoryAdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  constructor({ database, clock }: ServiceDeps) {
    this.#db = database.db
    this.#clock = clock
  }

  async locations(catalogId: string) {
    await this.#catalogOrThrow(catalogId)
    const rows = await inventoryRepo.locationsOf(this.#db, catalogId)
    return Promise.all(rows.map(async (r) => this.#view(r, await inventoryRepo.unitsAt(this.#db, r.id))))
  }

  /**
   * A new location. The catalog's first takes every unit in stock as its opening balance (a RECEIVE
   * each, "Opening balance"), and the catalog keeps its stock at locations from then on.
   */
  async createLocation(catalogId: string, input: Required<Pick<LocationInput, 'name' | 'addressLine1' | 'city' | 'state' | 'pincode'>> & LocationInput, actor: string) {
    const now = this.#clock.now()
    await this.#checkPlace(this.#db, catalogId, input.state, input.pincode, input.registrationId ?? null)
    const view = await this.#db.transaction(async (tx) => {
      // The catalog's row first (marked, and so locked, by every new location): two first locations
      // made at once wait for each other, and only the first takes the stock as its opening balance.
      if (!(await keepStockAtLocations(tx, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
      const first = !(await inventoryRepo.hasLocations(tx, catalogId))
      const units = first ? await unitsInStock(tx, catalogId) : []
      const location = await inventoryRepo.insertLocation(tx, {
        id: newId('loc', now.getTime()),
        catalogId,
        name: input.name.trim(),
        addressLine1: input.addressLine1.trim(),
        city: input.city.trim(),
        state: input.state.trim(),
        pincode: input.pincode,
        registrationId: input.registrationId ?? null,
        pickupName: input.pickupName?.trim() || null,
        position: input.position ?? 0,
        createdAt: now,
        updatedAt: now,
      })
      for (const u of units) await inventoryRepo.moveLevel(tx, { locationId: location.id, ...u }, u.stock, now)
      await inventoryRepo.insertMoves(
        tx,
        units.map((u) => ({ id: newId('imv', now.getTime()), catalogId, locationId: location.id, productId: u.productId, variantId: u.variantId, kind: 'RECEIVE' as const, quantity: u.stock, actor, reason: 'Opening balance', reference: null, createdAt: now })),
      )
      return this.#view(location, units.reduce((n, u) => n + u.stock, 0))
    })
    sawFirstLocation(catalogId) // this process's quotes plan from it at once
    return view
  }

  async updateLocation(locationId: string, input: LocationInput) {
    const now = this.#clock.now()
    return this.#db.transaction(async (tx) => {
      const current = await inventoryRepo.findLocation(tx, locationId, true)
      if (!current) throw new AppError('NOT_FOUND', 'Location not found')
      const state = input.state ?? current.state
      const pincode = input.pincode ?? current.pincode
      const registrationId = input.registrationId !== undefined ? input.registrationId : current.registrationId
      await this.#checkPlace(tx, current.catalogId, state, pincode, registrationId)
      const units = await inventoryRepo.unitsAt(tx, locationId)
      if (input.isActive === false && current.isActive && units > 0) {
        throw new AppError('CONFLICT', `Location ${locationId} holds ${units} units: transfer them to another location (or adjust them to zero) before closing it`)
      }
      const row = await inventoryRepo.updateLocation(tx, locationId, {
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.addressLine1 !== undefined ? { addressLine1: input.addressLine1.trim() } : {}),
        ...(input.city !== undefined ? { city: input.city.trim() } : {}),
        ...(input.state !== undefined ? { state: input.state.trim() } : {}),
        ...(input.pincode !== undefined ? { pincode: input.pincode } : {}),
        ...(input.registrationId !== undefined ? { registrationId: input.registrationId } : {}),
        ...(input.pickupName !== undefined ? { pickupName: input.pickupName?.trim() || null } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
        ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
        updatedAt: now,
      })
      return this.#view(row, units)
    })
  }

  /** RECEIVE (units arrived) or ADJUST (a count corrected) at a location: its level, the catalog's stock and the ledger together. */
  async moveStock(locationId: string, input: { productId: string; variantId?: string; kind: 'RECEIVE' | 'ADJUST'; quantity: number; reason: string }, actor: string) {
    if (input.quantity === 0) throw new AppError('BAD_REQUEST', 'quantity must not be 0')
    if (input.kind === 'RECEIVE' && input.quantity < 0) throw new AppError('BAD_REQUEST', 'quantity of a RECEIVE must be above 0 (a count corrected down is an ADJUST)')
    const now = this.#clock.now()
    return this.#db.transaction(async (tx) => {
      const location = await this.#location(tx, locationId)
      const unit = await stockUnitOf(tx, location.catalogId, input.productId, input.variantId)
      // The catalog's stock first (its product's row is every stock writer's first lock), then the level.
      if (!(await moveUnitStock(tx, unit, input.quantity))) throw new AppError('CONFLICT', `quantity ${input.quantity} would leave the catalog's stock of ${unit.variantId} below zero`)
      const onHand = await inventoryRepo.moveLevel(tx, { locationId, ...unit }, input.quantity, now)
      if (onHand === null) throw new AppError('CONFLICT', `quantity ${input.quantity} would leave ${location.name}'s units of ${unit.variantId} below zero`)
      await inventoryRepo.insertMoves(tx, [this.#move(location, unit, input.kind, input.quantity, actor, input.reason.trim(), null, now)])
      return this.#level(tx, locationId, unit, onHand)
    })
  }

  /** Units moved from one location to another of the catalog: two moves of one transfer; the catalog's stock is unchanged. */
  async transfer(fromId: string, input: { productId: string; variantId?: string; toLocationId: string; quantity: number; reason: string }, actor: string) {
    if (input.toLocationId === fromId) throw new AppError('BAD_REQUEST', 'toLocationId must be another location')
    const now = this.#clock.now()
    return this.#db.transaction(async (tx) => {
      // Both locations locked in id order: two transfers between the same pair never wait on each other in a cycle.
      const [a, b] = [fromId, input.toLocationId].sort()
      const locked = new Map<string, LocationRow>()
      for (const id of [a!, b!]) {
        const row = await inventoryRepo.findLocation(tx, id, true)
        if (row) locked.set(id, row)
      }
      const from = locked.get(fromId)
      if (!from) throw new AppError('NOT_FOUND', 'Location not found')
      const to = locked.get(input.toLocationId)
      if (!to || to.catalogId !== from.catalogId) throw new AppError('BAD_REQUEST', `toLocationId ${input.toLocationId} is not a location of this catalog`)
      if (!to.isActive) throw new AppError('CONFLICT', `Location ${to.id} is closed: open it before moving units there`)
      const unit = await stockUnitOf(tx, from.catalogId, input.productId, input.variantId)
      const left = await inventoryRepo.moveLevel(tx, { locationId: from.id, ...unit }, -input.quantity, now)
      if (left === null) throw new AppError('CONFLICT', `${from.name} holds fewer than ${input.quantity} units of ${unit.variantId}`)
      await inventoryRepo.moveLevel(tx, { locationId: to.id, ...unit }, input.quantity, now)
      const reference = newId('trf', now.getTime())
      const reason = input.reason.trim()
      await inventoryRepo.insertMoves(tx, [this.#move(from, unit, 'TRANSFER_OUT', -input.quantity, actor, reason, reference, now), this.#move(to, unit, 'TRANSFER_IN', input.quantity, actor, reason, reference, now)])
      return { transferId: reference, from: await this.#level(tx, from.id, unit, left), to: await this.#level(tx, to.id, unit, null) }
    })
  }

  async levels(locationId: string, page: Page) {
    const location = await this.#location(this.#db, locationId)
    const { rows, total } = await inventoryRepo.levelsPage(this.#db, location.id, { limit: page.limit, offset: (page.page - 1) * page.limit })
    const names = await stockUnitNames(this.#db, rows)
    return {
      data: rows.map((r) => ({ locationId: r.locationId, productId: r.productId, variantId: r.variantId, ...nameOf(names, r.variantId), onHand: r.onHand })),
      meta: pageMeta(total, page),
    }
  }

  async moves(catalogId: string, filter: { locationId?: string; productId?: string; variantId?: string; kind?: MoveKind }, page: Page) {
    await this.#catalogOrThrow(catalogId)
    const { rows, total } = await inventoryRepo.movesPage(this.#db, catalogId, filter, { limit: page.limit, offset: (page.page - 1) * page.limit })
    return {
      data: rows.map((m) => ({ id: m.id, locationId: m.locationId, productId: m.productId, variantId: m.variantId, kind: m.kind, quantity: m.quantity, actor: m.actor, reason: m.reason, reference: m.reference, createdAt: m.createdAt.toISOString() })),
      meta: pageMeta(total, page),
    }
  }

  async #catalogOrThrow(catalogId: string) {
    if (!(await catalogExists(this.#db, catalogId))) throw new AppError('NOT_FOUND', 'Catalog not found')
  }

  async #location(db: Executor, id: string) {
    const row = await inventoryRepo.findLocation(db, id)
    if (!row) throw new AppError('NOT_FOUND', 'Location not found')
    return row
  }

  async #level(db: Executor, locationId: string, unit: StockUnit, onHand: number | null) {
    const names = await stockUnitNames(db, [unit])
    const units = onHand ?? (await inventoryRepo.levelOf(db, locationId, unit.variantId))
    return { locationId, productId: unit.productId, variantId: unit.variantId, ...nameOf(names, unit.variantId), onHand: units }
  }

  #move(location: LocationRow, unit: StockUnit, kind: MoveKind, quantity: number, actor: string, reason: string, reference: string | null, at: Date) {
    return { id: newId('imv', at.getTime()), catalogId: location.catalogId, locationId: location.id, productId: unit.productId, variantId: unit.variantId, kind, quantity, actor, reason, reference, createdAt: at }
  }

  /**
   * The state must be the pincode's; a registration must exist and be of that state (a GSTIN is per
   * state). Without one the location ships under the catalog's GST seller, which must then be in its
   * state: goods leaving another state go out under a registration there (decision 0043).
   */
  async #checkPlace(db: Executor, catalogId: string, state: string, pincode: string, registrationId: string | null) {
    const states = statesForPincodePrefix(pincode)
    if (states.length > 0 && !states.some((s) => sameState(s, state))) throw new AppError('BAD_REQUEST', `state ${state.trim()} does not match pincode ${pincode} (${states.join(' or ')})`)
    if (registrationId === null) {
      const seller = await gstSellerOf(db, catalogId)
      if (seller && !sameState(seller.state, state)) {
        throw new AppError('BAD_REQUEST', 'Validation failed', [
          `registrationId: the location is in ${state.trim()} and the catalog's GST seller in ${seller.state}: goods shipped from ${state.trim()} go out under a GST registration of ${state.trim()} (POST /admin/gst/registrations, then name it here)`,
        ])
      }
      return
    }
    const registration = await gstRegistrationOf(db, registrationId)
    if (!registration) throw new AppError('BAD_REQUEST', `registrationId ${registrationId} is not a GST registration`)
    if (!sameState(registration.state, state)) {
      throw new AppError('BAD_REQUEST', `registrationId ${registrationId} (GSTIN ${registration.gstin}) is registered in ${registration.state}, the location is in ${state.trim()}: goods ship under a registration of their own state`)
    }
  }

  #view(r: LocationRow, unitsOnHand: number) {
    return {
      id: r.id,
      catalogId: r.catalogId,
      name: r.name,
      addressLine1: r.addressLine1,
      city: r.city,
      state: r.state,
      pincode: r.pincode,
      registrationId: r.registrationId,
      pickupName: r.pickupName,
      isActive: r.isActive,
      position: r.position,
      unitsOnHand,
      createdAt: r.createdAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    }
  }
}

const nameOf = (names: Map<string, { name: string; sku: string; title: string | null }>, variantId: string) => {
  const n = names.get(variantId)
  return { name: n?.name ?? '', sku: n?.sku ?? '', variantTitle: n?.title ?? null }
}
