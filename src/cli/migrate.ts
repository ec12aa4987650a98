import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const migrate: Command = {
  summary: 'Apply the database migrations (the server also does this at start)',
  options: {},
  async run(config, _values, _positionals, context) {
    await withRuntime(config, context, async () => undefined)
    return { text: 'Database is up to date.', json: { migrated: true } }
  },
}
