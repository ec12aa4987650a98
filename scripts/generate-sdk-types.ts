// `npm run sdk:generate`: builds the app on a throwaway embedded database, reads its OpenAPI
// document and writes the SDK's generated files (scripts/sdk-types.ts).
import { writeFileSync } from 'node:fs'
import { createTestApp } from '../test/helpers/app.ts'
import { SDK_SRC, sdkFiles } from './sdk-types.ts'

const t = await createTestApp()
try {
  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  for (const [name, text] of Object.entries(await sdkFiles(document))) {
    writeFileSync(new URL(name, SDK_SRC), text)
    console.log(`wrote packages/sdk/src/${name}`)
  }
} finally {
  await t.close()
}
