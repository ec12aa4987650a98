import { createPartner, setPartnerReturnOrigins } from '../modules/partners/index.ts'
import type { Command } from './command.ts'
import { withRuntime } from './command.ts'

export const partnerCreate: Command = {
  summary: 'Create a partner; prints its ID, secret and first API key (shown once)',
  options: {
    name: { type: 'string', required: true, description: 'Partner name' },
    catalog: { type: 'string', description: 'Catalog ID its key reads (default: the main catalog)' },
    'return-origins': { type: 'string', description: 'Comma-separated origins allowed in paymentReturnUrl (default: any)' },
  },
  async run(config, values) {
    const created = await withRuntime(config, async (deps) => {
      const partner = await createPartner(deps.database.db, { name: String(values.name), catalogId: values.catalog as string | undefined })
      if (values['return-origins']) await setPartnerReturnOrigins(deps.database.db, partner.partner.id, splitList(values['return-origins']))
      return partner
    })
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

const splitList = (value: unknown) =>
  String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)

export const partnerReturnOrigins: Command = {
  summary: "Set the origins a partner's paymentReturnUrl may use (empty: any absolute URL)",
  options: {
    partner: { type: 'string', required: true, description: 'Partner ID' },
    origins: { type: 'string', required: true, description: 'Comma-separated origins, for example https://shop.example' },
  },
  async run(config, values) {
    const origins = await withRuntime(config, (deps) => setPartnerReturnOrigins(deps.database.db, String(values.partner), splitList(values.origins)))
    return { text: `Return origins of ${String(values.partner)}: ${origins.join(', ') || 'any'}`, json: { partnerId: values.partner, origins } }
  },
}
