// Sold-out sightings: variant id (a product without options: its default variant's) -> a moment (performance.now()) before which its stock was seen at
// 0 by this process (a committed order took the last unit, or a refused one read 0). A request that
// began before that moment and is still waiting for its transaction (a flash sale's crowd in the
// pool's queue) is refused without running it: the stock was 0 at an instant inside its own
// lifetime, so "0 available" is a true answer for it, and a refusal never sells anything. A request
// that begins later reads the stock itself. Only refusals come from here, never a sale.
import { AppError } from '../../lib/errors.ts'
import { defaultVariantId, type StockUnit } from '../../modules/catalog/index.ts'

/** Sightings kept before old ones are dropped, and how old one may be when dropped. */
const SOLD_OUT_SIGHTINGS = 10_000
const SOLD_OUT_SIGHTING_MS = 60_000

export class SoldOutSightings {
  /** variant id -> when it was seen at 0, and whether it is a stored variant (named in the refusal). */
  readonly #since = new Map<string, { at: number; named: boolean }>()

  /** This process saw `unit` at 0 stock at `at` (performance.now()). */
  saw(unit: SoldUnit, at: number) {
    const since = this.#since
    if (since.size >= SOLD_OUT_SIGHTINGS) {
      for (const [id, seen] of since) if (performance.now() - seen.at > SOLD_OUT_SIGHTING_MS) since.delete(id)
      if (since.size >= SOLD_OUT_SIGHTINGS) since.clear()
    }
    since.set(unit.variantId, { at: Math.max(at, since.get(unit.variantId)?.at ?? at), named: unit.variantTitle !== null })
  }

  /** Refuses a request that began at `began` if one of its variants sold out while it waited. */
  refuseIfSoldOutSince(began: number, lines: { productId: string; variantId?: string | undefined; quantity: number }[]) {
    for (const line of lines) {
      const variantId = line.variantId ?? defaultVariantId(line.productId)
      const seen = this.#since.get(variantId)
      if (seen !== undefined && seen.at >= began) throw outOfStock({ productId: line.productId, variantId, variantTitle: seen.named ? variantId : null }, line.quantity, 0)
    }
  }
}

/** A unit sold: a stored variant has a title (`M / Red`); a product without options' default has none. */
export type SoldUnit = StockUnit & { variantTitle: string | null }

/** The 409 of a short line; a stored variant is named with its product (a product without options as the spec words it). */
export const outOfStock = ({ productId, variantId, variantTitle }: SoldUnit, requested: number, available: number) =>
  new AppError('CONFLICT', `Product ${productId}${variantTitle === null ? '' : ` variant ${variantId}`} is out of stock: ${requested} requested, ${available} available`)
