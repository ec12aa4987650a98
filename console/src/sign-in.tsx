// The sign-in page (issue #39): a form of its own, in the console's first script with React and
// nothing else (no react-admin, no MUI), so a cold sign-in loads a fraction of the console; the
// console itself is loaded once signed in (main.tsx). Also react-admin's login page inside the
// console, when a session ends (App.tsx).
import { type CSSProperties, type FormEvent, useState } from 'react'

const page: CSSProperties = { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#eceff1', fontFamily: 'Roboto, Helvetica, Arial, sans-serif', margin: 0, padding: 16, boxSizing: 'border-box' }
const card: CSSProperties = { background: '#fff', borderRadius: 8, boxShadow: '0 1px 4px rgba(0,0,0,0.2)', padding: 24, width: '100%', maxWidth: 360, boxSizing: 'border-box' }
const field: CSSProperties = { display: 'block', width: '100%', boxSizing: 'border-box', marginTop: 4, padding: '10px 12px', fontSize: 16, border: '1px solid #8a8a8a', borderRadius: 4 }
const label: CSSProperties = { display: 'block', marginTop: 16, fontSize: 14, color: '#212121' }
const button: CSSProperties = { marginTop: 24, width: '100%', padding: '10px 16px', fontSize: 15, fontWeight: 500, letterSpacing: '0.03em', color: '#fff', background: '#1565c0', border: 0, borderRadius: 4, cursor: 'pointer' }

/** The form: `submit` signs in (and throws the API's message when it refuses). */
export function SignIn({ submit }: { submit: (email: string, password: string) => Promise<void> }) {
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    setBusy(true)
    setError(null)
    try {
      await submit(String(form.get('email') ?? ''), String(form.get('password') ?? ''))
    } catch (err) {
      setError((err as Error).message)
      setBusy(false)
    }
  }
  return (
    <main style={page}>
      <form style={card} onSubmit={onSubmit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title" style={{ margin: 0, fontSize: 22, fontWeight: 500, color: '#212121' }}>
          commerce-api console
        </h1>
        <label style={label}>
          Email
          <input style={field} name="email" type="email" autoComplete="username" required autoFocus />
        </label>
        <label style={label}>
          Password
          <input style={field} name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p role="alert" style={{ color: '#b71c1c', margin: '16px 0 0', fontSize: 14, whiteSpace: 'pre-line' }}>
            {error}
          </p>
        )}
        <button style={{ ...button, opacity: busy ? 0.7 : 1 }} type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  )
}
