// People (ADMIN, issue #39): the back-office accounts; invite one (its temporary password shown
// once, to hand over), change a role, deactivate (their session ends at once) or reactivate, reset a
// password. And, for everyone, setting one's own password (after an invitation or a reset).
import { useEffect, useState } from 'react'
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Title } from 'react-admin'
import { ActionButton, useApiAction } from './actions.tsx'
import { api, saveSession, session } from './api.ts'
import { formatTime } from './format.ts'

type Person = { id: string; email: string; role: string; isActive: boolean; mustChangePassword: boolean; createdAt: string }
const ROLES = ['ADMIN', 'SUPPORT', 'CATALOG']

/** A temporary password, shown once with who it is for. */
function Shown({ shown }: { shown: { email: string; password: string } | null }) {
  if (!shown) return null
  return (
    <Alert severity="info" sx={{ my: 1 }} data-testid="temporary-password">
      Temporary password for {shown.email}: <strong>{shown.password}</strong>. It is shown this once: give it to them; they set their own after signing in.
    </Alert>
  )
}

export function People() {
  const [people, setPeople] = useState<Person[] | string>('loading')
  const [email, setEmail] = useState('')
  const [role, setRole] = useState('SUPPORT')
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null)
  const load = () => api<Person[]>('GET', '/admin/admins').then((a) => setPeople(a.data), (err: Error) => setPeople(err.message))
  useEffect(() => {
    void load()
  }, [])
  const withPassword = (answer: { data: { admin: Person; temporaryPassword: string } }) => {
    setShown({ email: answer.data.admin.email, password: answer.data.temporaryPassword })
    void load()
  }
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="People" />
      <CardContent>
        <Typography variant="h5" component="h2">
          People
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ my: 2 }}>
          <MuiTextField size="small" type="email" label="Email" value={email} onChange={(e) => setEmail(e.target.value)} sx={{ minWidth: 260 }} />
          <MuiTextField select size="small" label="Role" value={role} onChange={(e) => setRole(e.target.value)} sx={{ minWidth: 160 }}>
            {ROLES.map((r) => (
              <MenuItem key={r} value={r}>
                {r}
              </MenuItem>
            ))}
          </MuiTextField>
          <ActionButton label="Invite" variant="contained" disabled={!email} method="POST" path="/admin/admins" body={{ email, role }} onDone={(a) => {
              setEmail('')
              withPassword(a)
            }} />
        </Stack>
        <Shown shown={shown} />
        {typeof people === 'string' ? (
          <Typography variant="body2">{people}</Typography>
        ) : (
          people.map((p) => (
            <Box key={p.id} sx={{ py: 1, borderBottom: '1px solid #eee' }} data-testid={`person-${p.email}`}>
              <Typography variant="body1">
                {p.email} · {p.role} · {p.isActive ? 'active' : 'deactivated'}
                {p.mustChangePassword ? ' · temporary password' : ''}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                Since {formatTime(p.createdAt)}
              </Typography>
              <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 0.5 }}>
                {ROLES.filter((r) => r !== p.role).map((r) => (
                  <ActionButton key={r} label={`Make ${r}`} method="PATCH" path={`/admin/admins/${p.id}`} body={{ role: r }} onDone={() => void load()} />
                ))}
                <ActionButton label={p.isActive ? 'Deactivate' : 'Reactivate'} color={p.isActive ? 'error' : 'primary'} method="PATCH" path={`/admin/admins/${p.id}`} body={{ isActive: !p.isActive }} onDone={() => void load()} />
                <ActionButton label="Reset password" method="POST" path={`/admin/admins/${p.id}/reset-password`} onDone={withPassword} />
              </Stack>
            </Box>
          ))
        )}
      </CardContent>
    </Card>
  )
}

/** Everyone's own password: the current one, and a new one of at least 12 characters. */
export function OwnPassword() {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const { run, busy, error } = useApiAction()
  const change = async () => {
    const answer = await run<{ accessToken: string; expiresIn: number; admin: { id: string; email: string; role: 'ADMIN' | 'SUPPORT' | 'CATALOG' } }>('PUT', '/admin/me/password', { currentPassword: current, newPassword: next })
    // The other sessions ended: this one carries on with the new token.
    if (answer && session()) saveSession({ accessToken: answer.data.accessToken, expiresAt: Date.now() + answer.data.expiresIn * 1000, admin: answer.data.admin })
    if (answer) {
      setCurrent('')
      setNext('')
    }
  }
  return (
    <Card sx={{ mt: 2 }}>
      <Title title="My password" />
      <CardContent>
        <Typography variant="h5" component="h2">
          My password
        </Typography>
        <Stack spacing={1} sx={{ my: 2, maxWidth: 420 }}>
          <MuiTextField size="small" type="password" label="Current password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
          <MuiTextField size="small" type="password" label="New password (12 characters or more)" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
          <Box>
            <Button variant="contained" size="small" disabled={busy || !current || next.length < 12} onClick={change}>
              Change password
            </Button>
          </Box>
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
      </CardContent>
    </Card>
  )
}
