// `npm run sdk:generate`: builds the app on a throwaway embedded database, reads its OpenAPI
// document and writes the SDK's generated files (scripts/sdk-types.ts) and the published contract,
// openapi/v1.json (scripts/openapi-compat.ts, decision 0042).
import { mkdirSync, writeFileSync } from 'node:fs'
import { CONTRACT_FILE, CONTRACT_PATH, contractText } from './openapi-compat.ts'
import { createTestApp } from '../test/helpers/app.ts'
import { SDK_SRC, sdkFiles } from './sdk-types.ts'

const t = await createTestApp()
try {
  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  for (const [name, text] of Object.entries(await sdkFiles(document))) {
    writeFileSync(new URL(name, SDK_SRC), text)
    console.log(`wrote packages/sdk/src/${name}`)
  }
  mkdirSync(new URL('.', CONTRACT_FILE), { recursive: true })
  writeFileSync(CONTRACT_FILE, contractText(document))
  console.log(`wrote ${CONTRACT_PATH}`)
} finally {
  await t.close()
}
