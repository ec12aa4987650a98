// `node --import tsx scripts/openapi-dump.ts FILE`: writes the OpenAPI document the app serves
// (built on a throwaway embedded database) to FILE, pretty-printed, to compare two trees' documents.
import { writeFileSync } from 'node:fs'
import { createTestApp } from '../test/helpers/app.ts'

const file = process.argv[2]
if (!file) {
  // No default: a dump left in the working tree gets committed by accident (it once was).
  process.stderr.write('Usage: node --import tsx scripts/openapi-dump.ts FILE\n')
  process.exit(2)
}
const t = await createTestApp()
try {
  const document = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json()
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`)
} finally {
  await t.close()
}
