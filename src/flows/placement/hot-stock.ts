// Orders of one stock unit (a product's variant), at most a few at a time per process (issue #43: a
// flash sale). Every order of a unit updates its one stock row and holds it until commit, so they
// run one after another in the database whatever the concurrency; what concurrency adds is waiting
// inside transactions, each holding a pooled connection. A crowd of 1,000 buyers of one product took
// every connection of the pool, the rest waited past the pool's 3 s timeout and were answered 503.
// Here the crowd waits in memory, in arrival order, and at most UNIT_CONCURRENCY of its orders hold
// connections (enough for one to prepare while another holds the row); once the unit sells out,
// those still waiting are refused without a transaction (sold-out.ts). Orders of other units never
// wait here. Per process: N nodes let N x UNIT_CONCURRENCY reach the row, which stays correct (the
// row lock decides) and bounded.

/** Orders of one unit holding a transaction at once, per process. */
export const UNIT_CONCURRENCY = 3

interface Waiters {
  running: number
  queue: (() => void)[]
}

export class HotStockGate {
  readonly #units = new Map<string, Waiters>()

  /**
   * Waits until every unit of `units` has a place (taken in one order, so two orders never wait on
   * each other in a cycle); returns the function that gives them back (once, however often called).
   */
  async enter(units: string[]): Promise<() => void> {
    const keys = [...new Set(units)].sort()
    const taken: string[] = []
    const release = () => {
      for (const key of taken.splice(0)) this.#give(key)
    }
    try {
      for (const key of keys) {
        await this.#take(key)
        taken.push(key)
      }
    } catch (err) {
      release()
      throw err
    }
    return release
  }

  #take(key: string): Promise<void> | void {
    const unit = this.#units.get(key) ?? { running: 0, queue: [] }
    this.#units.set(key, unit)
    if (unit.running < UNIT_CONCURRENCY) {
      unit.running++
      return
    }
    return new Promise((resolve) => unit.queue.push(resolve))
  }

  #give(key: string) {
    const unit = this.#units.get(key)!
    const next = unit.queue.shift()
    // The place passes to the next in line; the count stays.
    if (next) return next()
    if (--unit.running === 0) this.#units.delete(key)
  }
}
