import assert from 'node:assert/strict'
import { existsSync, readdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { eq } from 'drizzle-orm'
import { ManualClock } from '../../src/lib/clock.ts'
import { uploads } from '../../src/modules/uploads/schema.sql.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { pathOf, png, put, requestSlots, uploadedImage } from '../helpers/uploads.ts'

const clock = new ManualClock(new Date('2026-11-23T10:00:00+05:30'))
let t: TestApp
let partner: PartnerFixture
const MB = 1024 * 1024

before(async () => {
  t = await createTestApp({ clock })
  partner = await givenPartner(t.deps, 'Uploads partner')
})
after(() => t.close())

const storedFiles = () => {
  const root = join(t.deps.config.dataDir, 'uploads')
  if (!existsSync(root)) return []
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name))
}

describe('signed upload slots', () => {
  test('one slot per file, with every field, the object name prefix and a 15-minute expiry', async () => {
    const customer = await givenCustomer(t.app, partner)
    for (const [purpose, prefix] of [['support', `support/tickets/${customer.userId}/`], ['returns', `returns/${customer.userId}/`]] as const) {
      const res = await requestSlots(t, customer, purpose, [
        { fileName: 'front.png', contentType: 'image/png', sizeBytes: 1000 },
        { fileName: 'फोटो (2).jpg', contentType: 'image/jpeg', sizeBytes: 15 * MB },
      ])
      assert.equal(res.statusCode, 201, res.body)
      const slots = res.json().data
      assert.equal(slots.length, 2)
      for (const slot of slots) {
        assert.deepEqual(Object.keys(slot).sort(), ['expiresAt', 'fileName', 'headers', 'method', 'objectName', 'publicUrl', 'uploadUrl'])
        assert.ok(slot.objectName.startsWith(prefix), slot.objectName)
        assert.match(slot.objectName.slice(prefix.length), /^upl_[0-9A-Z]{26}-[0-9a-f]{24}\.(png|jpg)$/, 'the generated name owes nothing to the client file name; it ends with its tag')
        assert.equal(slot.method, 'PUT')
        assert.equal(new Date(slot.expiresAt).getTime() - clock.now().getTime(), 15 * 60_000)
        assert.ok(slot.uploadUrl.includes(slot.objectName))
        assert.ok(slot.publicUrl.endsWith(slot.objectName))
      }
      assert.equal(slots[0].fileName, 'front.png')
      assert.deepEqual(slots[0].headers, { 'Content-Type': 'image/png' })
      assert.deepEqual(slots[1].headers, { 'Content-Type': 'image/jpeg' })
    }
  })

  test('limits and bad input: 400 in the error body, nothing stored', async () => {
    const customer = await givenCustomer(t.app, partner)
    const file = { fileName: 'a.png', contentType: 'image/png', sizeBytes: 10 }
    const before = storedFiles().length
    const cases: [object[], string[]][] = [
      [Array.from({ length: 6 }, () => file), ['files must contain no more than 5 elements']],
      [[], ['files must contain at least 1 elements']],
      [[{ ...file, sizeBytes: 16 * MB }], ['files.0.sizeBytes must not be greater than 15728640']],
      [[{ ...file, sizeBytes: 0 }], ['files.0.sizeBytes must not be less than 1']],
      [[{ ...file, sizeBytes: -5 }], ['files.0.sizeBytes must not be less than 1']],
      [[{ ...file, sizeBytes: 1.5 }], ['files.0.sizeBytes must be an integer number']],
      [[{ ...file, contentType: 'image/svg+xml' }], ['files.0.contentType must be one of the following values: image/png, image/jpeg, image/webp, image/gif']],
      [[{ ...file, contentType: 'text/html' }], ['files.0.contentType must be one of the following values: image/png, image/jpeg, image/webp, image/gif']],
      [[{ ...file, fileName: '../../etc/passwd' }], ['files.0.fileName must contain only letters, digits, spaces, dots, dashes, underscores and brackets']],
      [[{ ...file, fileName: 'a\u0000.png' }], ['files.0.fileName must contain only letters, digits, spaces, dots, dashes, underscores and brackets']],
      [[{ ...file, fileName: 'smile😀.png' }], ['files.0.fileName must contain only letters, digits, spaces, dots, dashes, underscores and brackets']],
      [[{ ...file, fileName: 'x'.repeat(10_000) }], ['files.0.fileName must be shorter than or equal to 255 characters']],
      [[{ ...file, extra: 1 }], ['files.0.property extra should not exist']],
    ]
    for (const [files, message] of cases) {
      const res = await requestSlots(t, customer, 'support', files)
      assert.equal(res.statusCode, 400, `${JSON.stringify(files).slice(0, 80)} -> ${res.body}`)
      const body = res.json()
      assert.equal(body.error, 'Bad Request')
      assert.deepEqual(body.message, message, JSON.stringify(files).slice(0, 80))
    }
    assert.equal(storedFiles().length, before)
    const noPartner = await t.app.inject({ method: 'POST', url: '/api/v1/support/uploads/signed-urls', headers: { authorization: `Bearer ${customer.accessToken}` }, payload: { files: [file] } })
    assert.equal(noPartner.statusCode, 400)
    assert.equal(noPartner.json().message, 'x-partner-id header is required')
    const noToken = await t.app.inject({ method: 'POST', url: '/api/v1/support/uploads/signed-urls', headers: { 'x-partner-id': partner.partnerId }, payload: { files: [file] } })
    assert.equal(noToken.statusCode, 401)
  })
})

describe('PUT to the signed address (local driver)', () => {
  async function slot(size: number, contentType = 'image/png') {
    const customer = await givenCustomer(t.app, partner)
    const res = await requestSlots(t, customer, 'support', [{ fileName: 'p.png', contentType, sizeBytes: size }])
    return res.json().data[0]
  }

  test('the declared image is stored and served back at publicUrl', async () => {
    const s = await slot(300)
    const res = await put(t, s.uploadUrl, png(300), 'image/png')
    assert.equal(res.statusCode, 201, res.body)
    const served = await t.app.inject({ method: 'GET', url: pathOf(s.publicUrl) })
    assert.equal(served.statusCode, 200)
    assert.equal(served.headers['content-type'], 'image/png')
    assert.deepEqual(served.rawPayload, png(300))
  })

  test('a second PUT with the same signed URL after a successful upload is refused, the stored file unchanged', async () => {
    const s = await slot(300)
    const first = png(300)
    assert.equal((await put(t, s.uploadUrl, first, 'image/png')).statusCode, 201)
    const other = Buffer.from(first)
    other[299] = 0x41
    const again = await put(t, s.uploadUrl, other, 'image/png')
    assert.ok([403, 409].includes(again.statusCode), `second PUT: ${again.statusCode} ${again.body}`)
    assert.deepEqual(Object.keys(again.json()).sort(), ['error', 'message', 'path', 'statusCode', 'timestamp'])
    const served = await t.app.inject({ method: 'GET', url: pathOf(s.publicUrl) })
    assert.equal(served.statusCode, 200)
    assert.deepEqual(served.rawPayload, first, 'the first upload is what is served')
    const concurrent = await slot(300)
    const both = await Promise.all([put(t, concurrent.uploadUrl, first, 'image/png'), put(t, concurrent.uploadUrl, other, 'image/png')])
    assert.deepEqual(both.map((r) => r.statusCode).sort(), [201, 409], 'two PUTs at once: one wins')
    const kept = (await t.app.inject({ method: 'GET', url: pathOf(concurrent.publicUrl) })).rawPayload
    assert.deepEqual(kept, both[0]!.statusCode === 201 ? first : other)
  })

  test('a tampered signature or a PUT after expiry: 403; another Content-Type: 400', async () => {
    const s = await slot(300)
    const tampered = s.uploadUrl.replace(/signature=([0-9a-f])/, (_m: string, c: string) => `signature=${c === '0' ? '1' : '0'}`)
    assert.equal((await put(t, tampered, png(300), 'image/png')).statusCode, 403)
    const bigger = s.uploadUrl.replace('size=300', 'size=3000')
    assert.equal((await put(t, bigger, png(3000), 'image/png')).statusCode, 403, 'the declared size is signed')
    const wrongType = await put(t, s.uploadUrl, png(300), 'image/jpeg')
    assert.equal(wrongType.statusCode, 400)
    assert.equal(wrongType.json().message, 'Content-Type must be image/png, as signed')
    clock.advance(16 * 60_000)
    const late = await put(t, s.uploadUrl, png(300), 'image/png')
    assert.equal(late.statusCode, 403)
    assert.equal(late.json().message, 'Invalid or expired upload signature')
    assert.equal((await t.app.inject({ method: 'GET', url: pathOf(s.publicUrl) })).statusCode, 404, 'nothing was stored')
  })

  test('a Content-Type that is no media type (sent twice): 415 naming the image types an upload takes, nothing kept', async () => {
    const s = await slot(300)
    const doubled = await put(t, s.uploadUrl, png(300), 'image/png, image/png')
    assert.equal(doubled.statusCode, 415, doubled.body)
    assert.equal(doubled.json().message, 'Unsupported content type: send image/png, image/jpeg, image/webp, image/gif')
    assert.equal((await t.app.inject({ method: 'GET', url: pathOf(s.publicUrl) })).statusCode, 404, 'nothing was stored')
  })

  test('2 MB on a slot declared 1 MB: 413 and nothing kept; fewer bytes than declared: 400', async () => {
    const s = await slot(MB)
    const before = storedFiles().length
    const res = await put(t, s.uploadUrl, png(2 * MB), 'image/png')
    assert.equal(res.statusCode, 413)
    assert.equal(res.json().message, `The file is larger than the ${MB} bytes declared for this slot`)
    assert.equal(storedFiles().length, before)
    const short = await put(t, s.uploadUrl, png(1000), 'image/png')
    assert.equal(short.statusCode, 400)
    assert.equal(short.json().message, `The file is 1000 bytes; this slot was declared for ${MB}`)
    assert.equal(storedFiles().length, before)
  })

  test('bytes that are not the declared image (HTML renamed .png): 400, nothing kept', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>'.padEnd(200, ' '))
    const s = await slot(html.length)
    const before = storedFiles().length
    const res = await put(t, s.uploadUrl, html, 'image/png')
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'The file content is not a valid image/png file')
    assert.equal(storedFiles().length, before)
  })
})

// Issue #20: the public GET was exempt from rate limiting and queried the database for every name,
// so anyone could make the service run a query per request at will. A dedicated app with a small
// read budget, and the database driver's query calls counted, to show which misses cost a query.
describe('public GET of uploaded files', () => {
  let r: TestApp
  let queries = 0
  before(async () => {
    r = await createTestApp({ env: { UPLOAD_READ_RATE_LIMIT_MAX: '20' } })
    // Every statement drizzle runs goes through the driver's query(): count them (pg pool or PGlite).
    const driver = (r.deps.database.pool ?? r.deps.database.pglite) as unknown as { query: (...args: unknown[]) => Promise<unknown> }
    const query = driver.query.bind(driver)
    driver.query = (...args: unknown[]) => {
      queries++
      return query(...args)
    }
  })
  after(() => r.close())
  let address = 0
  const get = (url: string, remoteAddress = `10.60.0.${++address}`) => r.app.inject({ method: 'GET', url, remoteAddress })

  test('when one address asks for many missing files, then 404 until its budget (UPLOAD_READ_RATE_LIMIT_MAX) is spent, then 429; another address is not affected', async () => {
    const statuses = []
    for (let i = 0; i < 26; i++) statuses.push((await get(`/api/v1/uploads/support/tickets/usr_missing/upl_${i}.png`, '10.61.0.1')).statusCode)
    assert.deepEqual(statuses, [...Array(20).fill(404), ...Array(6).fill(429)])
    const limited = await get('/api/v1/uploads/returns/x.png', '10.61.0.1')
    assert.equal(limited.statusCode, 429)
    assert.match(limited.json().message, /^Too many requests/)
    assert.equal(limited.headers['x-ratelimit-limit'], '20')
    assert.ok(Number(limited.headers['retry-after']) > 0)
    assert.equal((await get('/api/v1/uploads/returns/x.png', '10.61.0.2')).statusCode, 404)
  })

  test('when a name was never issued (forged tag, made-up name, issued-looking name not on disk), then 404 without a database query', async () => {
    const partner = await givenPartner(r.deps, 'Upload reads')
    const customer = await givenCustomer(r.app, partner)
    const publicUrl = await uploadedImage(r, customer, 'support')
    const path = pathOf(publicUrl)
    const forgedTag = path.replace(/-([0-9a-f]{24})\.png$/, (_, tag: string) => `-${tag.startsWith('0') ? '1' : '0'}${tag.slice(1)}.png`)
    const otherId = path.replace(/upl_[0-9A-Z]{26}/, 'upl_01ARZ3NDEKTSV4RRFFQ69G5FAV')
    const untagged = path.replace(/-[0-9a-f]{24}\.png$/, '.png')
    const made = ['/api/v1/uploads/support/tickets/../../etc/passwd', '/api/v1/uploads/returns/anything.png', `/api/v1/uploads/${'a'.repeat(180)}`]
    const before = queries
    for (const url of [forgedTag, otherId, untagged, ...made]) {
      const res = await get(url)
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`)
      assert.equal(res.json().message, 'File not found')
    }
    assert.equal(queries - before, 0, 'no query for a name that was never issued')
    const real = await get(path)
    assert.equal(real.statusCode, 200, 'a real upload still loads')
    assert.deepEqual(real.rawPayload, png(200))
    assert.ok(queries - before >= 1, 'the counter does see the query of a real read')
  })

  test('a file stored under an untagged name (issued before names carried a tag) still loads', async () => {
    const partner = await givenPartner(r.deps, 'Older uploads')
    const customer = await givenCustomer(r.app, partner)
    const publicUrl = await uploadedImage(r, customer, 'returns')
    // What an upload made before this change looks like: the same name without its tag.
    const tagged = new URL(publicUrl).pathname.replace('/api/v1/uploads/', '')
    const legacy = tagged.replace(/-[0-9a-f]{24}\.png$/, '.png')
    const root = join(r.deps.config.dataDir, 'uploads')
    renameSync(join(root, tagged), join(root, legacy))
    await r.deps.database.db.update(uploads).set({ objectName: legacy }).where(eq(uploads.objectName, tagged))
    const res = await get(`/api/v1/uploads/${legacy}`)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'image/png')
  })
})
