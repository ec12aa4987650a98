// Delivery arithmetic, pure: shipping charge by weight slab and order value, and delivery dates in
// Indian time that respect the dispatch cut-off and skip Sundays (no dispatch or delivery on them).
import type { WeightSlab } from './schema.sql.ts'

const IST_OFFSET_MS = 330 * 60_000

export function slabCharge(slabs: WeightSlab[], weightGrams: number): bigint {
  if (slabs.length === 0) return 0n
  const sorted = [...slabs].sort((a, b) => a.upToGrams - b.upToGrams)
  const slab = sorted.find((s) => weightGrams <= s.upToGrams) ?? sorted[sorted.length - 1]!
  return BigInt(slab.charge)
}

export function shippingCharge(input: {
  slabs: WeightSlab[]
  weightGrams: number
  itemsTotal: bigint
  freeShippingThreshold: bigint | null
}): bigint {
  if (input.freeShippingThreshold !== null && input.itemsTotal >= input.freeShippingThreshold) return 0n
  return slabCharge(input.slabs, input.weightGrams)
}

/** The calendar date in India of an instant, as a UTC-midnight Date (for day arithmetic). */
function istDate(instant: Date): Date {
  const shifted = new Date(instant.getTime() + IST_OFFSET_MS)
  return new Date(Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()))
}

const isSunday = (day: Date) => day.getUTCDay() === 0
const nextDay = (day: Date) => new Date(day.getTime() + 86_400_000)

/** The day an order placed now is dispatched: today before the cut-off, else the next working day. */
export function dispatchDate(now: Date, cutoffHour: number): Date {
  const hourInIndia = new Date(now.getTime() + IST_OFFSET_MS).getUTCHours()
  let day = istDate(now)
  if (hourInIndia >= cutoffHour || isSunday(day)) day = nextDay(day)
  while (isSunday(day)) day = nextDay(day)
  return day
}

/** Dispatch plus `days` working days (Sundays skipped), as YYYY-MM-DD. */
export function estimatedDeliveryDate(now: Date, cutoffHour: number, days: number): string {
  let day = dispatchDate(now, cutoffHour)
  for (let added = 0; added < days; ) {
    day = nextDay(day)
    if (!isSunday(day)) added++
  }
  return day.toISOString().slice(0, 10)
}
