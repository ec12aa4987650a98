import { ADMIN_ROLES, type AdminRole, createAdmin } from '../modules/admins/index.ts'
import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const adminCreate: Command = {
  summary: 'Create a back-office user',
  options: {
    email: { type: 'string', required: true, description: 'Login email' },
    password: { type: 'string', required: true, description: 'At least 8 characters' },
    role: { type: 'string', description: `One of ${ADMIN_ROLES.join(', ')} (default ADMIN)` },
  },
  async run(config, values) {
    const role = (values.role as string | undefined) ?? 'ADMIN'
    if (!(ADMIN_ROLES as readonly string[]).includes(role)) {
      throw new AppError('BAD_REQUEST', `role must be one of the following values: ${ADMIN_ROLES.join(', ')}`)
    }
    const admin = await withRuntime(config, (deps) =>
      createAdmin(deps.database.db, { email: String(values.email), password: String(values.password), role: role as AdminRole }),
    )
    return { text: `Admin ${admin.email} (${admin.role}) created with id ${admin.id}.`, json: admin }
  },
}
