// Back-office users: created from the command line (or the demo seed), log in with email and
// password (argon2id), and are found again behind their bearer token.
import { hash, verify } from '@node-rs/argon2'
import { eq } from 'drizzle-orm'
import type { Db, Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
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
  private readonly db: Db
  private readonly clock: Deps['clock']
  private readonly config: Deps['config']

  constructor(
    { database, clock, config }: Deps,
    private readonly signer: TokenSigner,
  ) {
    this.db = database.db
    this.clock = clock
    this.config = config
  }

  async login(emailInput: string, password: string) {
    const email = emailInput.trim().toLowerCase()
    const [admin] = await this.db.select().from(adminUsers).where(eq(adminUsers.email, email)).limit(1)
    if (!admin || !admin.isActive) {
      dummyHash ??= hash('not-a-real-password')
      await verify(await dummyHash, password).catch(() => false)
      throw new AppError('UNAUTHORIZED', INVALID_LOGIN)
    }
    if (!(await verify(admin.passwordHash, password).catch(() => false))) {
      throw new AppError('UNAUTHORIZED', INVALID_LOGIN)
    }
    const accessToken = await this.signer.sign({ role: admin.role }, admin.id, 'admin', this.config.adminTokenTtlSeconds, this.clock.now())
    return {
      accessToken,
      tokenType: 'Bearer' as const,
      expiresIn: this.config.adminTokenTtlSeconds,
      admin: { id: admin.id, email: admin.email, role: admin.role },
    }
  }

  /** The admin behind a bearer token; the stored role and active flag win over the token's. */
  async authenticateAdmin(token: string): Promise<AdminIdentity | null> {
    const claims = await this.signer.verify(token, 'admin', this.clock.now())
    if (!claims || typeof claims.sub !== 'string') return null
    const [admin] = await this.db.select().from(adminUsers).where(eq(adminUsers.id, claims.sub)).limit(1)
    if (!admin || !admin.isActive) return null
    return { adminId: admin.id, email: admin.email, role: admin.role }
  }
}
