import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'
import { withProgress } from './progress.ts'

export const seed: Command = {
  summary: 'Create the demo data and print fresh demo credentials',
  options: { force: { type: 'boolean', description: 'Allow seeding when NODE_ENV=production' } },
  async run(config, values, _positionals, context) {
    // Seeding rotates the demo partner's secret: never by accident on a production database.
    if (config.env === 'production' && !values.force) {
      throw new AppError('FORBIDDEN', 'Refusing to seed demo data with NODE_ENV=production (pass --force if you mean it)')
    }
    const { describeCredentials, seedDemoData } = await import('../seed.ts')
    const credentials = await withProgress(
      context,
      'Opening the database',
      (progress) =>
        withRuntime(config, context, (deps) => {
          progress.step('Seeding demo data')
          return seedDemoData(deps.database.db, config.publicBaseUrl)
        }),
      (_, seconds) => `Seeded demo data in ${seconds} s.`,
    )
    if (!config.databaseUrl) {
      writeFileSync(join(config.dataDir, 'credentials.json'), `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 })
    }
    return { text: describeCredentials(credentials), json: credentials }
  },
}
