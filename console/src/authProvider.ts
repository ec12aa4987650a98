// Sign-in with a back-office account (POST /admin/auth/login); the role is the permission that
// decides which screens the console shows.
import type { AuthProvider } from 'react-admin'
import { saveSession, session, signIn } from './session.ts'

export const authProvider: AuthProvider = {
  async login({ username, password }: { username: string; password: string }) {
    await signIn(username, password)
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
