// Sign-in with a back-office account (POST /admin/auth/login); the role is the permission that
// decides which screens the console shows.
import type { AuthProvider } from 'react-admin'
import { api, saveSession, session, type Session } from './api.ts'

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    saveSession(null)
    const { data } = await api<{ accessToken: string; expiresIn: number; admin: Session['admin'] }>('POST', '/admin/auth/login', { email: username, password })
    saveSession({ accessToken: data.accessToken, expiresAt: Date.now() + data.expiresIn * 1000, admin: data.admin })
  },
  async logout() {
    saveSession(null)
  },
  async checkAuth() {
    if (!session()) throw new Error('Please sign in')
  },
  async checkError(error: { status?: number }) {
    // 401: the token expired or was revoked. A 403 is a role limit, shown as the API's message.
    if (error?.status === 401) {
      saveSession(null)
      throw new Error('Your session ended, please sign in again')
    }
  },
  async getPermissions() {
    return session()?.admin.role ?? null
  },
  async getIdentity() {
    const current = session()
    if (!current) throw new Error('Please sign in')
    return { id: current.admin.id, fullName: `${current.admin.email} (${current.admin.role})` }
  },
}
