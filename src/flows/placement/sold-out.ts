// Sold-out sightings: product id -> a moment (performance.now()) before which its stock was seen at
// 0 by this process (a committed order took the last unit, or a refused one read 0). A request that
// began before that moment and is still waiting for its transaction (a flash sale's crowd in the
// pool's queue) is refused without running it: the stock was 0 at an instant inside its own
// lifetime, so "0 available" is a true answer for it, and a refusal never sells anything. A request
// that begins later reads the stock itself. Only refusals come from here, never a sale.
import { AppError } from '../../lib/errors.ts'

/** Sightings kept before old ones are dropped, and how old one may be when dropped. */
const SOLD_OUT_SIGHTINGS = 10_000
const SOLD_OUT_SIGHTING_MS = 60_000

export class SoldOutSightings {
  readonly #since = new Map<string, number>()

  /** This process saw `productId` at 0 stock at `at` (performance.now()). */
  saw(productId: string, at: number) {
    const since = this.#since
    if (since.size >= SOLD_OUT_SIGHTINGS) {
      for (const [id, seen] of since) if (performance.now() - seen > SOLD_OUT_SIGHTING_MS) since.delete(id)
      if (since.size >= SOLD_OUT_SIGHTINGS) since.clear()
    }
    since.set(productId, Math.max(at, since.get(productId) ?? at))
  }

  /** Refuses a request that began at `began` if one of its products sold out while it waited. */
  refuseIfSoldOutSince(began: number, lines: { productId: string; quantity: number }[]) {
    for (const line of lines) {
      const seen = this.#since.get(line.productId)
      if (seen !== undefined && seen >= began) throw outOfStock(line.productId, line.quantity, 0)
    }
  }
}

export const outOfStock = (productId: string, requested: number, available: number) =>
  new AppError('CONFLICT', `Product ${productId} is out of stock: ${requested} requested, ${available} available`)
