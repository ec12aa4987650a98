// The back-office console's entry: one react-admin app, served by the service at /admin.
import { createRoot } from 'react-dom/client'
import { App } from './App.tsx'

createRoot(document.getElementById('root')!).render(<App />)
