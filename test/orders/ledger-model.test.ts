// DI-19 and DI-22 (reliability plan 7.1): model-based properties of the Wallet Cash and Reward
// Points ledgers, driven through the public HTTP API and the back-office routes it needs.
//
// fast-check generates sequences of commands that move money and points: back-office balance
// adjustments (credits and debits), orders using Wallet Cash and/or Reward Points (COD and prepaid
// through the sandbox provider), payments that succeed or fail, cancellations by the customer or the
// back office, status moves up to delivery (which earns points), and returns that are refunded in
// full or for less, to Wallet Cash or to the original payment, rejected, or replaced. A model of plain
// integers (paise, points) re-implements the documented rules (docs/orders.md, docs/returns.md,
// src/modules/checkout/pricing.ts) and predicts every answer, every customer's balances and every
// ledger entry. After every command: the API's balances equal the model's, each balance is the sum
// of the customer's ledger entries and >= 0 (GET /wallet, every page), the entries are the ones the
// model expects, and the invariant sweep (I1-I8, among them I3 ledgers and I4 refunds within paid)
// reports nothing new.
//
// One app and one database for the file; every run gets fresh customers of one of a few partners
// with different point rules, so runs never share a balance. A run's sweep ignores violations that
// were there before it started (left by an earlier failing run), so shrinking stays meaningful.
// The model is test/helpers/ledger-model.ts; the app and the checks after each command are
// test/helpers/ledger-model-app.ts; the commands are test/helpers/ledger-model-commands.ts.
//
// Size: PROPERTY_RUNS=N runs N sequences of each property (the plan's figure is 1,000, nightly).
// Without it the CI size below. A failure prints fast-check's seed, path and the commands' replayPath;
// replay one property with PROPERTY_SEED=<seed> PROPERTY_PATH=<path> PROPERTY_REPLAY_PATH=<replayPath>
// node --import tsx --test --test-reporter spec --test-name-pattern 'ledger model-based property' test/orders/ledger-model.test.ts ('points ledger' for the other)
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import fc from 'fast-check'
import { type CustomerFixture, givenCustomer } from '../helpers/factories.ts'
import { invariantViolations } from '../helpers/invariants.ts'
import { DEFAULT_RULES, type Model, PRODUCTS, RULES, type Real } from '../helpers/ledger-model.ts'
import { clock, executed, partners, t } from '../helpers/ledger-model-app.ts'
import { Adjust, Advance, Cancel, LatePay, NewSession, Pay, PlaceOrder, Return, type ReturnKind } from '../helpers/ledger-model-commands.ts'

// ---- size --------------------------------------------------------------------------------------

function envInteger(name: string): number | undefined {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return undefined
  const value = Number(raw)
  assert.ok(Number.isSafeInteger(value) && value > 0, `${name} must be a positive integer, not ${raw}`)
  return value
}
const PROPERTY_RUNS = envInteger('PROPERTY_RUNS')
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined
const PATH = process.env.PROPERTY_PATH || undefined
const REPLAY_PATH = process.env.PROPERTY_REPLAY_PATH || undefined
// CI: what fits in about a minute for the whole file on the shared 2-core box, per backend.
const SIZE = {
  di19: { runs: PROPERTY_RUNS ?? 20, maxCommands: 50 },
  di22: { runs: PROPERTY_RUNS ?? 20, maxCommands: 30 },
}

// ---- arbitraries -------------------------------------------------------------------------------

const CUSTOMERS = 2
const customerArb = fc.nat({ max: CUSTOMERS - 1 })
const pickArb = fc.nat({ max: 1000 })
const linesArb = fc.uniqueArray(fc.record({ product: fc.nat({ max: PRODUCTS.length - 1 }), quantity: fc.integer({ min: 1, max: 3 }) }), {
  minLength: 1,
  maxLength: PRODUCTS.length,
  selector: (l) => l.product,
})
const returnPicksArb = fc.array(fc.record({ line: pickArb, quantity: pickArb }), { minLength: 1, maxLength: 3 })

function commandArbs(focus: 'ledgers' | 'points') {
  const walletAdjust = fc.tuple(customerArb, fc.integer({ min: -300_000, max: 500_000 }).filter((x) => x !== 0)).map(([c, a]) => new Adjust(c, 'WALLET_CASH', BigInt(a)))
  const pointsAdjust = fc.tuple(customerArb, fc.integer({ min: -3_000, max: 5_000 }).filter((x) => x !== 0)).map(([c, a]) => new Adjust(c, 'REWARD_POINTS', BigInt(a)))
  const order = fc
    .tuple(
      customerArb,
      linesArb,
      // The points property wants deliveries (earning) and returns (reversal): COD orders get there sooner.
      focus === 'points' ? fc.constantFrom('COD' as const, 'COD' as const, 'PREPAID' as const) : fc.constantFrom('COD' as const, 'PREPAID' as const),
      fc.boolean(),
      focus === 'points' ? fc.constant(true) : fc.boolean(),
    )
    .map(([c, lines, mode, wallet, points]) => new PlaceOrder(c, lines, mode, wallet, points))
  const pay = fc.tuple(pickArb, fc.constantFrom('pay' as const, 'pay' as const, 'fail' as const)).map(([p, outcome]) => new Pay(p, outcome))
  const session = pickArb.map((p) => new NewSession(p))
  const latePay = fc.tuple(pickArb, pickArb).map(([p, s]) => new LatePay(p, s))
  const cancel = fc.tuple(pickArb, fc.constantFrom('customer' as const, 'admin' as const)).map(([p, by]) => new Cancel(p, by))
  const advance = fc.tuple(pickArb, fc.constantFrom(1, 2, 4, 4)).map(([p, steps]) => new Advance(p, steps))
  const kinds: ReturnKind[] = ['WALLET_CREDIT', 'KEEP_ITEM_WALLET_CREDIT', 'ORIGINAL_PAYMENT_REFUND', 'ORIGINAL_PAYMENT_REFUND', 'LOWERED_ORIGINAL_PAYMENT_REFUND', 'LOWERED_WALLET_CREDIT', 'REJECTED', 'REPLACEMENT']
  const ret = fc.tuple(pickArb, returnPicksArb, fc.constantFrom(...kinds)).map(([p, picks, kind]) => new Return(p, picks, kind))
  // Repeats weight the choice.
  return focus === 'points'
    ? [pointsAdjust, order, order, order, pay, cancel, advance, advance, advance, ret, ret, ret]
    : [walletAdjust, walletAdjust, pointsAdjust, order, order, order, pay, pay, session, latePay, cancel, advance, advance, advance, ret, ret]
}

async function setup(partnerIndex: number): Promise<{ model: Model; real: Real }> {
  const partner = partners[partnerIndex]!
  const customers: CustomerFixture[] = []
  for (let i = 0; i < CUSTOMERS; i++) customers.push(await givenCustomer(t.app, partner))
  const known = new Set(await invariantViolations(t.deps.database.db, { now: clock.now() }))
  return {
    model: { rules: RULES[partnerIndex] ?? DEFAULT_RULES, customers: customers.map(() => ({ wallet: 0n, points: 0n, entries: [] })), orders: [] },
    real: { customers, orders: [], known },
  }
}

async function runProperty(name: string, partnerIndexes: number[], focus: 'ledgers' | 'points', size: { runs: number; maxCommands: number }) {
  const started = Date.now()
  executed.clear()
  await fc.assert(
    // The first value of a counterexample is the partner: an index into RULES.
    fc.asyncProperty(fc.constantFrom(...partnerIndexes), fc.commands(commandArbs(focus), { maxCommands: size.maxCommands, size: 'max', ...(REPLAY_PATH ? { replayPath: REPLAY_PATH } : {}) }), async (partner, cmds) => {
      await fc.asyncModelRun(() => setup(partner), cmds)
    }),
    { numRuns: size.runs, ...(SEED !== undefined ? { seed: SEED } : {}), ...(PATH ? { path: PATH } : {}) },
  )
  const total = [...executed.values()].reduce((s, n) => s + n, 0)
  const counts = [...executed].map(([k, n]) => `${k} ${n}`).join(', ')
  console.log(`${name}: ${size.runs} runs, ${total} commands checked (${counts}), 0 counterexamples, ${((Date.now() - started) / 1000).toFixed(1)} s`)
}

describe('Wallet Cash and Reward Points ledgers against a model', () => {
  test('ledger model-based property: after every order, payment, cancellation, delivery, return and adjustment the API balances equal the model, entries sum to them, I1-I8 hold', async () => {
    await runProperty('DI-19', RULES.map((_, i) => i), 'ledgers', SIZE.di19)
  })

  test('points ledger: earn on delivery, redeem, give back on cancel and return, take back what was earned; points balance = Σ entries >= 0 after each step', async () => {
    await runProperty('DI-22', [1, 2, 3, 5], 'points', SIZE.di22)
  })
})
