import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

// Written out rather than read from the admins module, so that `--help` loads no module (a test
// checks it against ADMIN_ROLES).
export const ADMIN_ROLES_HELP = 'ADMIN, SUPPORT, CATALOG'

export const adminCreate: Command = {
  summary: 'Create a back-office user',
  options: {
    email: { type: 'string', required: true, description: 'Login email' },
    password: { type: 'string', required: true, description: 'At least 8 characters' },
    role: { type: 'string', description: `One of ${ADMIN_ROLES_HELP} (default ADMIN)` },
  },
  async run(config, values, _positionals, context) {
    const { ADMIN_ROLES, createAdmin } = await import('../modules/admins/index.ts')
    const role = (values.role as string | undefined) ?? 'ADMIN'
    if (!(ADMIN_ROLES as readonly string[]).includes(role)) {
      throw new AppError('BAD_REQUEST', `role must be one of the following values: ${ADMIN_ROLES.join(', ')}`)
    }
    const admin = await withRuntime(config, context, (deps) =>
      createAdmin(deps.database.db, { email: String(values.email), password: String(values.password), role: role as (typeof ADMIN_ROLES)[number] }),
    )
    return { text: `Admin ${admin.email} (${admin.role}) created with id ${admin.id}.`, json: admin }
  },
}
