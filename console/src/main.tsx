// The back-office console's entry, served by the service at /admin. Signed out, it shows the sign-in
// form, which needs React alone; the console (react-admin, MUI: most of the bytes) is a second script,
// loaded once signed in, or at once with a session kept from before (issue #39: code splitting).
import { createRoot } from 'react-dom/client'
import { session, signIn } from './session.ts'
import { SignIn } from './sign-in.tsx'

const root = createRoot(document.getElementById('root')!)

async function showConsole() {
  const { App } = await import('./App.tsx')
  root.render(<App />)
}

if (session()) void showConsole()
else {
  root.render(
    <SignIn
      submit={async (email, password) => {
        await signIn(email, password)
        if (window.location.hash.startsWith('#/login')) window.location.hash = '#/'
        await showConsole()
      }}
    />,
  )
}
