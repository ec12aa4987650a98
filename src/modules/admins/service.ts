// Back-office users: created from the command line (or the demo seed) or invited by an ADMIN, log in
// with email and password (argon2id), and are found again behind their bearer token. People
// (issue #39): ADMINs list, invite (a temporary password shown once), change the role of, deactivate
// and reset the password of back-office accounts, never leaving the service without an active ADMIN;
// a reset or a deactivation ends every session of the account at once (sessionVersion in the token).
import { randomBytes } from 'node:crypto'
import { hash, verify } from '@node-rs/argon2'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import type { Deps, ServiceDeps } from '../../deps.ts'
import { AppError } from '../../lib/errors.ts'
import { newId } from '../../lib/ids.ts'
import type { TokenSigner } from '../auth/index.ts'
import { type AdminRole, adminUsers } from './schema.sql.ts'

export interface AdminIdentity {
  adminId: string
  email: string
  role: AdminRole
}

const INVALID_LOGIN = 'Invalid email or password'
/** Verifying against this keeps the answer time the same whether or not the email exists. */
let dummyHash: Promise<string> | null = null

/** True once any back-office user exists. */
export async function anyAdminExists(db: Executor): Promise<boolean> {
  const [row] = await db.select({ id: adminUsers.id }).from(adminUsers).limit(1)
  return row !== undefined
}

export async function createAdmin(db: Executor, input: { email: string; password: string; role?: AdminRole }) {
  const email = input.email.trim().toLowerCase()
  if (input.password.length < 8) throw new AppError('BAD_REQUEST', 'password must be longer than or equal to 8 characters')
  const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.email, email)).limit(1)
  if (existing) throw new AppError('CONFLICT', 'An admin with this email already exists')
  const [row] = await db
    .insert(adminUsers)
    .values({ id: newId('adm'), email, passwordHash: await hash(input.password), role: input.role ?? 'ADMIN' })
    .returning({ id: adminUsers.id, email: adminUsers.email, role: adminUsers.role })
  return row!
}

/** Sets a new password, creating the admin if needed (used by the demo seed). */
export async function upsertAdminPassword(db: Executor, input: { email: string; password: string; role: AdminRole }) {
  const email = input.email.trim().toLowerCase()
  const [existing] = await db.select({ id: adminUsers.id }).from(adminUsers).where(eq(adminUsers.email, email)).limit(1)
  if (!existing) return createAdmin(db, input)
  const [row] = await db
    .update(adminUsers)
    .set({ passwordHash: await hash(input.password), role: input.role, isActive: true })
    .where(eq(adminUsers.id, existing.id))
    .returning({ id: adminUsers.id, email: adminUsers.email, role: adminUsers.role })
  return row!
}

export class AdminService {
  readonly #db: Db
  readonly #clock: Deps['clock']
  readonly #config: ServiceDeps<'adminTokenTtlSeconds'>['config']

  readonly #signer: TokenSigner
  constructor(
    { database, clock, config }: ServiceDeps<'adminTokenTtlSeconds'>,
    signer: TokenSigner,
  ) {
    this.#signer = signer
    this.#db = database.db
    this.#clock = clock
    this.#config = config
  }

  async login(emailInput: string, password: string) {
    const email = emailInput.trim().toLowerCase()
    const [admin] = await this.#db.select().from(adminUsers).where(eq(adminUsers.email, email)).limit(1)
    if (!admin || !admin.isActive) {
      dummyHash ??= hash('not-a-real-password')
      await verify(await dummyHash, password).catch(() => false)
      throw new AppError('UNAUTHORIZED', INVALID_LOGIN)
    }
    if (!(await verify(admin.passwordHash, password).catch(() => false))) {
      throw new AppError('UNAUTHORIZED', INVALID_LOGIN)
    }
    const accessToken = await this.#signer.sign({ role: admin.role, sv: String(admin.sessionVersion) }, admin.id, 'admin', this.#config.adminTokenTtlSeconds, this.#clock.now())
    return {
      accessToken,
      tokenType: 'Bearer' as const,
      expiresIn: this.#config.adminTokenTtlSeconds,
      admin: { id: admin.id, email: admin.email, role: admin.role, mustChangePassword: admin.mustChangePassword },
    }
  }

  /** The admin behind a bearer token; the stored role and active flag win over the token's. */
  async authenticateAdmin(token: string): Promise<AdminIdentity | null> {
    const claims = await this.#signer.verify(token, 'admin', this.#clock.now())
    if (!claims || typeof claims.sub !== 'string') return null
    const [admin] = await this.#db.select().from(adminUsers).where(eq(adminUsers.id, claims.sub)).limit(1)
    // A token from before a reset or a deactivation carries an older version: its session has ended.
    if (!admin || !admin.isActive || (claims.sv ?? '0') !== String(admin.sessionVersion)) return null
    return { adminId: admin.id, email: admin.email, role: admin.role }
  }

  /** Every back-office account, oldest first. */
  async list() {
    const rows = await this.#db.select().from(adminUsers).orderBy(asc(adminUsers.createdAt), asc(adminUsers.id))
    return rows.map(personView)
  }

  /** A new account with a temporary password, answered once (the invitee changes it after signing in). */
  async invite(input: { email: string; role: AdminRole }) {
    const temporaryPassword = newTemporaryPassword()
    const created = await createAdmin(this.#db, { email: input.email, password: temporaryPassword, role: input.role })
    await this.#db.update(adminUsers).set({ mustChangePassword: true }).where(eq(adminUsers.id, created.id))
    return { admin: await this.#person(created.id), temporaryPassword }
  }

  /**
   * Changes an account's role or active flag. 409 when it would leave no active ADMIN: the active
   * ADMIN rows are locked first, so two changes at once cannot both remove the last one.
   */
  async update(actorId: string, adminId: string, changes: { role?: AdminRole; isActive?: boolean }) {
    if (changes.role === undefined && changes.isActive === undefined) throw new AppError('BAD_REQUEST', 'Validation failed', ['role or isActive: name the change'])
    await this.#db.transaction(async (tx) => {
      await tx.execute(sql`select id from admin_users where role = 'ADMIN' and is_active for update`)
      const [row] = await tx.select().from(adminUsers).where(eq(adminUsers.id, adminId)).for('update')
      if (!row) throw new AppError('NOT_FOUND', 'Admin not found')
      const role = changes.role ?? row.role
      const isActive = changes.isActive ?? row.isActive
      const stillAdmin = role === 'ADMIN' && isActive
      if (row.role === 'ADMIN' && row.isActive && !stillAdmin) {
        const [{ n }] = (await tx.select({ n: sql<number>`count(*)::int` }).from(adminUsers).where(and(eq(adminUsers.role, 'ADMIN'), eq(adminUsers.isActive, true)))) as [{ n: number }]
        if (Number(n) <= 1) throw new AppError('CONFLICT', `${row.email} is the last active ADMIN: make another account ADMIN first`)
      }
      if (adminId === actorId && !isActive) throw new AppError('CONFLICT', 'You cannot deactivate your own account: ask another ADMIN')
      // Deactivated: every session ends (reactivated: the old tokens stay ended).
      const ended = row.isActive && !isActive
      await tx
        .update(adminUsers)
        .set({ role, isActive, ...(ended ? { sessionVersion: row.sessionVersion + 1 } : {}) })
        .where(eq(adminUsers.id, adminId))
    })
    return this.#person(adminId)
  }

  /** A new temporary password, answered once; every session of the account ends. */
  async resetPassword(adminId: string) {
    const temporaryPassword = newTemporaryPassword()
    const [row] = await this.#db
      .update(adminUsers)
      .set({ passwordHash: await hash(temporaryPassword), mustChangePassword: true, sessionVersion: sql`${adminUsers.sessionVersion} + 1` })
      .where(eq(adminUsers.id, adminId))
      .returning()
    if (!row) throw new AppError('NOT_FOUND', 'Admin not found')
    return { admin: personView(row), temporaryPassword }
  }

  /** The signed-in admin sets their own password (the current one checked); other sessions end, this one gets a new token. */
  async changeOwnPassword(adminId: string, currentPassword: string, newPassword: string) {
    const [row] = await this.#db.select().from(adminUsers).where(eq(adminUsers.id, adminId)).limit(1)
    if (!row || !(await verify(row.passwordHash, currentPassword).catch(() => false))) throw new AppError('BAD_REQUEST', 'Validation failed', ['currentPassword: is not your password'])
    if (currentPassword === newPassword) throw new AppError('BAD_REQUEST', 'Validation failed', ['newPassword: must differ from the current one'])
    await this.#db
      .update(adminUsers)
      .set({ passwordHash: await hash(newPassword), mustChangePassword: false, sessionVersion: row.sessionVersion + 1 })
      .where(eq(adminUsers.id, adminId))
    return this.login(row.email, newPassword)
  }

  async #person(adminId: string) {
    const [row] = await this.#db.select().from(adminUsers).where(eq(adminUsers.id, adminId)).limit(1)
    if (!row) throw new AppError('NOT_FOUND', 'Admin not found')
    return personView(row)
  }
}

const personView = (row: typeof adminUsers.$inferSelect) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  isActive: row.isActive,
  mustChangePassword: row.mustChangePassword,
  createdAt: row.createdAt.toISOString(),
})

/** 16 random bytes as 22 URL-safe characters: shown once, changed by its owner after signing in. */
const newTemporaryPassword = () => randomBytes(16).toString('base64url')
