// What a parcel is declared as to the carrier (decision 0030): its dead weight and the box it goes
// in, from the products' packed weights and sizes, unless the operator weighed and measured it.
import { AppError } from '../../lib/errors.ts'

export interface Dimensions {
  length: number
  breadth: number
  height: number
}

export interface ParcelBox {
  weightGrams: number
  dimensionsCm: Dimensions
}

/** A unit whose product has no size counts as this cube: the size every parcel was declared as before. */
export const UNKNOWN_UNIT_CM = 10
/** The largest side a parcel is declared with, cm (the shipments table's bound). */
export const MAX_SIDE_CM = 1000
export const MAX_WEIGHT_GRAMS = 1_000_000

/**
 * The packing rule: the weight is every unit's weight; the box is as long as the longest unit, as
 * broad as the broadest, and tall enough to hold every unit's volume (at least as tall as the
 * tallest). Couriers bill the larger of dead and volumetric weight (L x B x H / 5000), which this
 * keeps: the box's volume is the units' volume, rounded up to whole centimetres.
 * `given` (the operator's scale and tape) wins, each part on its own.
 */
export function packParcel(units: { quantity: number; weightGrams: number; dimensionsCm: Dimensions | null }[], given: { weightGrams?: number; dimensionsCm?: Dimensions } = {}): ParcelBox {
  const weightGrams = given.weightGrams ?? units.reduce((sum, u) => sum + u.weightGrams * u.quantity, 0)
  if (weightGrams > MAX_WEIGHT_GRAMS) throw new AppError('BAD_REQUEST', 'Validation failed', [`weightGrams: the units weigh ${weightGrams} g, more than a parcel's ${MAX_WEIGHT_GRAMS} g: ship them in several parcels`])
  if (given.dimensionsCm) return { weightGrams, dimensionsCm: given.dimensionsCm }
  const sized = units.map((u) => ({ quantity: u.quantity, size: u.dimensionsCm ?? { length: UNKNOWN_UNIT_CM, breadth: UNKNOWN_UNIT_CM, height: UNKNOWN_UNIT_CM } }))
  const length = Math.max(...sized.map((u) => u.size.length))
  const breadth = Math.max(...sized.map((u) => u.size.breadth))
  const tallest = Math.max(...sized.map((u) => u.size.height))
  const volume = sized.reduce((sum, u) => sum + u.size.length * u.size.breadth * u.size.height * u.quantity, 0)
  const height = Math.max(tallest, Math.ceil(volume / (length * breadth)))
  if (height > MAX_SIDE_CM) throw new AppError('BAD_REQUEST', 'Validation failed', [`dimensionsCm: the units need a box ${height} cm tall, more than ${MAX_SIDE_CM} cm: ship them in several parcels, or give the box's dimensionsCm`])
  return { weightGrams, dimensionsCm: { length, breadth, height } }
}
