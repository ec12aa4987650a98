// The session of the signed-in admin (its bearer token, kept in localStorage) and signing in: what
// the sign-in page needs, without react-admin or MUI (main.tsx: the first script is small).

export const API = '/api/v1'
const SESSION = 'commerce-console.session'

export type Role = 'ADMIN' | 'SUPPORT' | 'CATALOG'
export interface Session {
  accessToken: string
  expiresAt: number
  admin: { id: string; email: string; role: Role }
}

export function session(): Session | null {
  try {
    const stored = JSON.parse(localStorage.getItem(SESSION) ?? 'null') as Session | null
    return stored && stored.expiresAt > Date.now() ? stored : null
  } catch {
    return null
  }
}
export function saveSession(value: Session | null) {
  if (value) localStorage.setItem(SESSION, JSON.stringify(value))
  else localStorage.removeItem(SESSION)
}

/** The API's error body as one readable message: its message, or its list of problems joined. */
export function errorMessage(body: unknown, status: number): string {
  const message = (body as { message?: unknown } | null)?.message
  if (Array.isArray(message)) return message.join('\n')
  if (typeof message === 'string') return message
  return `The API answered ${status}`
}

/** Signs in with a back-office account (POST /admin/auth/login) and keeps the session; throws the API's message. */
export async function signIn(email: string, password: string): Promise<void> {
  saveSession(null)
  const res = await fetch(`${API}/admin/auth/login`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })
  const json = (await res.json().catch(() => null)) as { data?: { accessToken: string; expiresIn: number; admin: Session['admin'] } } | null
  if (!res.ok || !json?.data) throw new Error(errorMessage(json, res.status))
  saveSession({ accessToken: json.data.accessToken, expiresAt: Date.now() + json.data.expiresIn * 1000, admin: json.data.admin })
}
