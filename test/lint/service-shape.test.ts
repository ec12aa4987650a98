// One service shape (decision 0041): in src/, a class's private members are `#private`, and no
// constructor declares fields in its parameters. The rule runs through ESLint's Node API on small
// sources placed at real paths (a plain file and a route file, whose rule list is its own), so a
// broken config cannot let TypeScript's `private` back in.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ESLint } from 'eslint'

const eslint = new ESLint({ cwd: new URL('../../', import.meta.url).pathname })
const shapeErrors = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath }))[0]!.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message.split(':')[0]!.split(',')[0]!)

const TS_PRIVATE = `export class Desk {
  private readonly db: number
  constructor(db: number, private readonly clock: () => Date) {
    this.db = db
  }
  private helper() {
    return this.db + this.clock().getTime()
  }
  total() {
    return this.helper()
  }
}
`
const HASH_PRIVATE = `export class Desk {
  readonly #db: number
  readonly name: string
  constructor(db: number, name: string) {
    this.#db = db
    this.name = name
  }
  #helper() {
    return this.#db
  }
  total() {
    return this.#helper()
  }
}
`

test("TypeScript's private members and parameter properties are refused in src/, in a service and in a route file", async () => {
  for (const file of ['src/modules/orders/fixture.ts', 'src/modules/orders/fixture-routes.ts', 'src/lib/fixture.ts']) {
    assert.deepEqual((await shapeErrors(file, TS_PRIVATE)).sort(), ['Declare the field (#name) and assign it in the constructor', 'Use a #private field', 'Use a #private method'], file)
  }
})

test('#private fields and methods, and public fields declared in the class body, are accepted', async () => {
  assert.deepEqual(await shapeErrors('src/modules/orders/fixture.ts', HASH_PRIVATE), [])
  assert.deepEqual(await shapeErrors('src/modules/orders/fixture-routes.ts', HASH_PRIVATE), [])
})
