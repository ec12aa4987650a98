// Time is injected so that expiries can be tested without sleeping.
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export class ManualClock implements Clock {
  #current: Date

  constructor(current: Date = new Date()) {
    this.#current = current
  }

  now(): Date {
    return new Date(this.#current)
  }
  advance(ms: number): void {
    this.#current = new Date(this.#current.getTime() + ms)
  }
}
