import { and, eq, isNull } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { customerIsBlocked } from '../customers/index.ts'
import { partnerIsActive } from '../partners/index.ts'
import { authSessions, refreshTokens } from './schema.sql.ts'

export const authRepo = {
  async insertSession(db: Executor, row: typeof authSessions.$inferInsert) {
    await db.insert(authSessions).values(row)
  },
  async insertRefreshToken(db: Executor, row: typeof refreshTokens.$inferInsert) {
    await db.insert(refreshTokens).values(row)
  },
  async findRefreshToken(db: Executor, tokenHash: string) {
    const [row] = await db
      .select({ token: refreshTokens, session: authSessions, partnerActive: partnerIsActive(authSessions.partnerId), userBlocked: customerIsBlocked(authSessions.userId) })
      .from(refreshTokens)
      .innerJoin(authSessions, eq(authSessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .limit(1)
    return row ?? null
  },
  /** Marks the token used only if nobody else did: exactly one of two racing refreshes wins. */
  async markUsed(db: Executor, tokenId: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(refreshTokens)
      .set({ usedAt: at })
      .where(and(eq(refreshTokens.id, tokenId), isNull(refreshTokens.usedAt)))
      .returning({ id: refreshTokens.id })
    return rows.length === 1
  },
  async revokeSession(db: Executor, sessionId: string, at: Date, reason: string) {
    await db
      .update(authSessions)
      .set({ revokedAt: at, revokedReason: reason })
      .where(and(eq(authSessions.id, sessionId), isNull(authSessions.revokedAt)))
  },
  /** The session with its partner's active flag: a deactivated partner's customers are cut off. */
  async findSession(db: Executor, sessionId: string) {
    const [row] = await db
      .select({ session: authSessions, partnerActive: partnerIsActive(authSessions.partnerId), userBlocked: customerIsBlocked(authSessions.userId) })
      .from(authSessions)
      .where(eq(authSessions.id, sessionId))
      .limit(1)
    return row ?? null
  },
}
