// Which locations give an order its units (decision 0043, step 5): the nearest active location that
// holds every unit, else the units taken line by line from the nearest locations that hold them.
// Nearness follows the delivery pincode's own hierarchy: the same pincode, then the same sorting
// district (its first three digits), the same state, the same postal region (its first digit),
// then anywhere; ties by the location's position, then its age.
import { sameState } from '../../lib/pincode-states.ts'

export interface Place {
  id: string
  pincode: string
  state: string
  position: number
}

/** 0 (same pincode) to 4 (another region): how near a location is to where the goods go. */
export function nearness(location: { pincode: string; state: string }, delivery: { pincode: string; state: string }): number {
  if (location.pincode === delivery.pincode) return 0
  if (location.pincode.slice(0, 3) === delivery.pincode.slice(0, 3)) return 1
  if (sameState(location.state, delivery.state)) return 2
  if (location.pincode[0] === delivery.pincode[0]) return 3
  return 4
}

/** The locations nearest first (the order is stable: position, then the order given). */
export function nearestFirst<T extends Place>(places: T[], delivery: { pincode: string; state: string }): T[] {
  return places
    .map((place, i) => ({ place, i, near: nearness(place, delivery) }))
    .sort((a, b) => a.near - b.near || a.place.position - b.place.position || a.i - b.i)
    .map((p) => p.place)
}

export interface Take {
  locationId: string
  variantId: string
  quantity: number
}

/** A candidate location: `ships` names the GST registration its goods go out under (a line never spans two). */
export interface Source {
  id: string
  ships: string
}

/**
 * The takes that give every line its units from `places` (nearest first) holding `levels`
 * (location -> variant -> units): all from the first place holding every line in full; else each
 * line from the nearest place holding all of it; else from the nearest places that ship under one
 * GST registration and together hold it (a line is one supply: its units are invoiced by one GSTIN,
 * decision 0043). Null, with the line that cannot be given, when no registration's places hold it.
 */
export function allocate(lines: { variantId: string; quantity: number }[], places: Source[], levels: Map<string, Map<string, number>>): { takes: Take[] } | { short: string } {
  const held = (placeId: string, variantId: string) => levels.get(placeId)?.get(variantId) ?? 0
  const whole = places.find((p) => lines.every((l) => held(p.id, l.variantId) >= l.quantity))
  if (whole) return { takes: lines.map((l) => ({ locationId: whole.id, variantId: l.variantId, quantity: l.quantity })) }
  const left = new Map(places.map((p) => [p.id, new Map(levels.get(p.id) ?? [])]))
  const there = (placeId: string, variantId: string) => left.get(placeId)!.get(variantId) ?? 0
  const takes: Take[] = []
  for (const line of lines) {
    const one = places.find((p) => there(p.id, line.variantId) >= line.quantity)
    const group = one ? [one] : [...new Set(places.map((p) => p.ships))].map((ships) => places.filter((p) => p.ships === ships)).find((g) => g.reduce((n, p) => n + there(p.id, line.variantId), 0) >= line.quantity)
    if (!group) return { short: line.variantId }
    let wanted = line.quantity
    for (const place of group) {
      const take = Math.min(there(place.id, line.variantId), wanted)
      if (take === 0) continue
      left.get(place.id)!.set(line.variantId, there(place.id, line.variantId) - take)
      takes.push({ locationId: place.id, variantId: line.variantId, quantity: take })
      wanted -= take
      if (wanted === 0) break
    }
  }
  return { takes }
}
