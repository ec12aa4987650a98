// Evidence uploads through the API, for support and returns tests.
import type { TestApp } from './app.ts'
import { type CustomerFixture, customerHeaders } from './factories.ts'

/** A tiny but real PNG (1x1), padded to `size` bytes with trailing data after IEND. */
export function png(size = 100): Buffer {
  const bytes = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
    'hex',
  )
  return size > bytes.length ? Buffer.concat([bytes, Buffer.alloc(size - bytes.length)]) : bytes
}

export const pathOf = (url: string) => {
  const u = new URL(url)
  return `${u.pathname}${u.search}`
}

export function requestSlots(t: TestApp, customer: CustomerFixture, purpose: 'support' | 'returns', files: object[]) {
  return t.app.inject({ method: 'POST', url: `/api/v1/${purpose}/uploads/signed-urls`, headers: customerHeaders(customer), payload: { files } })
}

export function put(t: TestApp, uploadUrl: string, body: Buffer, contentType: string) {
  return t.app.inject({ method: 'PUT', url: pathOf(uploadUrl), headers: { 'content-type': contentType }, payload: body })
}

/** Requests a slot for one PNG and uploads it: its publicUrl. */
export async function uploadedImage(t: TestApp, customer: CustomerFixture, purpose: 'support' | 'returns', size = 200): Promise<string> {
  const res = await requestSlots(t, customer, purpose, [{ fileName: 'photo.png', contentType: 'image/png', sizeBytes: size }])
  if (res.statusCode !== 201) throw new Error(`slots: ${res.statusCode} ${res.body}`)
  const slot = res.json().data[0]
  const uploaded = await put(t, slot.uploadUrl, png(size), 'image/png')
  if (uploaded.statusCode !== 201) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`)
  return slot.publicUrl
}
