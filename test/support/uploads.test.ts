import assert from 'node:assert/strict'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import { ManualClock } from '../../src/lib/clock.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { givenCustomer, givenPartner, type PartnerFixture } from '../helpers/factories.ts'
import { pathOf, png, put, requestSlots } from '../helpers/uploads.ts'

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
        assert.match(slot.objectName.slice(prefix.length), /^upl_[0-9A-Z]{26}\.(png|jpg)$/, 'the generated name owes nothing to the client file name')
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

  test('SE-09 replay: a second PUT with the same signed URL after a successful upload is refused, the stored file unchanged', async () => {
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
