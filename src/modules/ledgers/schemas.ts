// Request and response schemas of the ledgers module: they validate, type the handlers, serialize
// answers and make the OpenAPI document.
import { Type } from 'typebox'
import { SignedMoneyInput } from '../../http/schemas.ts'

export const LedgerAdjustment = Type.Object({
  kind: Type.Enum(['WALLET_CASH', 'REWARD_POINTS']),
  amount: SignedMoneyInput(),
  reason: Type.String({ minLength: 3, maxLength: 200 }),
  reference: Type.Optional(Type.String({ maxLength: 200 })),
})

export const Balances = Type.Object({ walletCash: Type.String(), rewardPoints: Type.Integer() })
