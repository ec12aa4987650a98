import { createApiKey, findPartner, revokeApiKey } from '../modules/partners/index.ts'
import { findDefaultCatalog } from '../modules/catalog/index.ts'
import { AppError } from '../lib/errors.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const apikeyCreate: Command = {
  summary: 'Issue a new API key for a partner (shown once)',
  options: {
    partner: { type: 'string', required: true, description: 'Partner ID' },
    catalog: { type: 'string', description: 'Catalog ID the key reads (default: the main catalog)' },
    name: { type: 'string', description: 'A label to tell keys apart' },
  },
  async run(config, values) {
    const key = await withRuntime(config, async (deps) => {
      const db = deps.database.db
      if (!(await findPartner(db, String(values.partner)))) throw new AppError('NOT_FOUND', 'Partner not found')
      const catalogId = (values.catalog as string | undefined) ?? (await findDefaultCatalog(db))?.id
      if (!catalogId) throw new AppError('NOT_FOUND', 'No catalog exists yet')
      return createApiKey(db, String(values.partner), catalogId, (values.name as string | undefined) ?? 'default')
    })
    return { text: `API key ${key.id} for catalog ${key.catalogId}:\n  ${key.apiKey}`, json: key }
  },
}

export const apikeyRevoke: Command = {
  summary: 'Revoke an API key: its requests are refused at once',
  options: { id: { type: 'string', required: true, description: 'API key ID (key_…)' } },
  async run(config, values) {
    await withRuntime(config, (deps) => revokeApiKey(deps.database.db, deps.clock, String(values.id)))
    return { text: `API key ${values.id} revoked.`, json: { id: values.id, revoked: true } }
  },
}
