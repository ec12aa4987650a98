import { createPartner } from '../modules/partners/index.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const partnerCreate: Command = {
  summary: 'Create a partner; prints its ID, secret and first API key (shown once)',
  options: {
    name: { type: 'string', required: true, description: 'Partner name' },
    catalog: { type: 'string', description: 'Catalog ID its key reads (default: the main catalog)' },
  },
  async run(config, values) {
    const created = await withRuntime(config, (deps) =>
      createPartner(deps.database.db, { name: String(values.name), catalogId: values.catalog as string | undefined }),
    )
    const json = { partner: { id: created.partner.id, name: created.partner.name, secret: created.secret }, apiKey: created.apiKey, apiKeyId: created.apiKeyId, catalogId: created.catalogId }
    const text = [
      `Partner ${created.partner.name} created.`,
      `  Partner ID (x-partner-id): ${created.partner.id}`,
      `  Partner secret:            ${created.secret}`,
      `  API key (x-api-key):       ${created.apiKey}   (id ${created.apiKeyId}, catalog ${created.catalogId})`,
      'Store the secret and the key now: they are not shown again.',
    ].join('\n')
    return { text, json }
  },
}
