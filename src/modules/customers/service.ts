// The customer's own profile and address book. Every change runs in one transaction; address
// changes first lock the customer row, so concurrent "make default" calls cannot leave two
// defaults (the partial unique index would refuse it anyway) or none.
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import { toUser } from './views.ts'
import { customerRepo } from './repo.ts'
import type { addresses } from './schema.sql.ts'

export const MAX_ADDRESSES = 20

type AddressRow = typeof addresses.$inferSelect
export type AddressInput = {
  label: string
  line1: string
  line2?: string
  city: string
  state: string
  pincode: string
  isDefault?: boolean
}

export function toAddress(row: AddressRow) {
  return {
    id: row.id,
    userId: row.userId,
    label: row.label,
    line1: row.line1,
    line2: row.line2,
    city: row.city,
    state: row.state,
    pincode: row.pincode,
    isDefault: row.isDefault,
  }
}

function trimmed<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v])) as T
}

function requireText(fields: object, names: string[]) {
  const values = fields as Record<string, unknown>
  const empty = names.filter((n) => values[n] === '')
  if (empty.length) throw new AppError('BAD_REQUEST', `${empty[0]} should not be empty`)
}

/** An address's fields trimmed, the ones that must carry text checked (400 naming the first blank one). */
export function addressFields<T extends Partial<AddressInput>>(input: T): T {
  const fields = trimmed(input)
  requireText(fields, ['label', 'line1', 'city', 'state'])
  return fields
}

export class ProfileService {
  readonly #db: Db
  readonly #clock: Deps['clock']

  constructor({ database, clock }: ServiceDeps) {
    this.#db = database.db
    this.#clock = clock
  }

  async #customerOrThrow(userId: string) {
    const user = await customerRepo.findById(this.#db, userId)
    if (!user) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token')
    return user
  }

  async profile(userId: string) {
    const found = await customerRepo.findWithAddresses(this.#db, userId)
    if (!found) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token')
    return { ...toUser(found.user), addresses: found.addresses.map(toAddress) }
  }

  async updateProfile(userId: string, input: { name?: string; email?: string }) {
    const changes = trimmed(input)
    requireText(changes, ['name'])
    if (changes.email !== undefined) changes.email = changes.email.toLowerCase()
    await this.#customerOrThrow(userId)
    return toUser(await customerRepo.update(this.#db, userId, { ...changes, updatedAt: this.#clock.now() }))
  }

  async listAddresses(userId: string) {
    return (await customerRepo.listAddresses(this.#db, userId)).map(toAddress)
  }

  /**
   * Saves an address (its state already checked against its pincode by the address book's flow,
   * src/flows/address-book.ts). In `executor`'s transaction when one is given.
   */
  async createAddress(userId: string, input: AddressInput, executor: Executor = this.#db) {
    const fields = addressFields(input)
    return executor.transaction(async (tx) => {
      if (!(await customerRepo.lockCustomer(tx, userId))) throw new AppError('UNAUTHORIZED', 'Invalid or expired access token')
      const existing = await customerRepo.countAddresses(tx, userId)
      if (existing >= MAX_ADDRESSES) {
        throw new AppError('BUSINESS_RULE', `A customer can save at most ${MAX_ADDRESSES} addresses; delete one first`)
      }
      // The first address is the default whatever was asked; a later one only when asked.
      const isDefault = existing === 0 || fields.isDefault === true
      if (isDefault) await customerRepo.clearDefault(tx, userId)
      const now = this.#clock.now()
      const row = await customerRepo.insertAddress(tx, {
        id: newId('adr'),
        userId,
        label: fields.label,
        line1: fields.line1,
        line2: fields.line2 ?? '',
        city: fields.city,
        state: fields.state,
        pincode: fields.pincode,
        isDefault,
        createdAt: now,
        updatedAt: now,
      })
      return toAddress(row)
    })
  }

  /** The customer's address, locked with the customer for the rest of the transaction (404 when not theirs). */
  async addressForUpdate(tx: Executor, userId: string, addressId: string) {
    await customerRepo.lockCustomer(tx, userId)
    const current = await customerRepo.findAddress(tx, userId, addressId)
    if (!current) throw new AppError('NOT_FOUND', 'Address not found')
    return toAddress(current)
  }

  /** Changes any subset of an address (its state and pincode as they will be already checked by the address book's flow). */
  async updateAddress(userId: string, addressId: string, input: Partial<AddressInput>, executor: Executor = this.#db) {
    const fields = addressFields(input)
    return executor.transaction(async (tx) => {
      const current = await this.addressForUpdate(tx, userId, addressId)
      const { isDefault, ...rest } = fields
      const now = this.#clock.now()
      let nextDefault = current.isDefault
      if (isDefault === true && !current.isDefault) {
        await customerRepo.clearDefault(tx, userId)
        nextDefault = true
      } else if (isDefault === false && current.isDefault) {
        // Giving up the default passes it to the most recent other address; the only address stays default.
        const successor = (await customerRepo.listAddresses(tx, userId))
          .filter((a) => a.id !== addressId)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))[0]
        if (successor) {
          await customerRepo.updateAddress(tx, addressId, { isDefault: false })
          await customerRepo.updateAddress(tx, successor.id, { isDefault: true, updatedAt: now })
          nextDefault = false
        }
      }
      const row = await customerRepo.updateAddress(tx, addressId, { ...rest, isDefault: nextDefault, updatedAt: now })
      return toAddress(row)
    })
  }

  async deleteAddress(userId: string, addressId: string) {
    return this.#db.transaction(async (tx) => {
      await customerRepo.lockCustomer(tx, userId)
      const current = await customerRepo.findAddress(tx, userId, addressId)
      if (!current) throw new AppError('NOT_FOUND', 'Address not found')
      await customerRepo.deleteAddress(tx, addressId)
      if (current.isDefault) {
        const next = await customerRepo.mostRecentAddress(tx, userId)
        if (next) await customerRepo.updateAddress(tx, next.id, { isDefault: true, updatedAt: this.#clock.now() })
      }
      return toAddress(current)
    })
  }
}

