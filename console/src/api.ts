// The console's only way to the service: the public back-office API under /api/v1/admin, with the
// admin bearer token of the session. Errors carry the API's own message (every line of it).
import { HttpError } from 'react-admin'

export { API, errorMessage, type Role, saveSession, type Session, session } from './session.ts'
import { API, errorMessage, session } from './session.ts'

export interface Answer<T> {
  data: T
  message: string
  meta?: { total: number; page: number; limit: number; totalPages: number }
}

export async function api<T = any>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer<T>> {
  const headers: Record<string, string> = { accept: 'application/json' }
  const token = session()?.accessToken
  if (token) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers['content-type'] = contentType
  const res = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })
  const json = await res.json().catch(() => null)
  if (!res.ok) throw new HttpError(errorMessage(json, res.status), res.status, json)
  return json as Answer<T>
}

/** A query string of the defined, non-empty values. */
export function query(values: Record<string, unknown>): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value))
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** Downloads a file the API answers (a CSV report, a PDF) with the session's token, under the API's file name; with a body, POSTed as JSON. */
export async function download(path: string, fallbackName: string, body?: unknown): Promise<string> {
  const token = session()?.accessToken
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  const res = await fetch(`${API}${path}`, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (!res.ok) throw new HttpError(errorMessage(await res.json().catch(() => null), res.status), res.status)
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName
  const url = URL.createObjectURL(await res.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  return name
}
