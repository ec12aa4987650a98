// Every action of the console says what happened: the API's success message, or its error message.
import { useState } from 'react'
import { Button, type ButtonProps } from '@mui/material'
import { useNotify, useRefresh } from 'react-admin'
import { type Answer, api } from './api.ts'

/** Runs an API call, shows its message (or its error) and refreshes the screen's data. */
export function useApiAction() {
  const notify = useNotify()
  const refresh = useRefresh()
  const [busy, setBusy] = useState(false)
  // The last call's error message, for a form that keeps it on screen beside the notification.
  const [error, setError] = useState('')
  async function run<T>(method: string, path: string, body?: unknown): Promise<Answer<T> | null> {
    setBusy(true)
    try {
      const answer = await api<T>(method, path, body)
      setError('')
      notify(answer.message, { type: 'success' })
      refresh()
      return answer
    } catch (err) {
      setError((err as Error).message)
      notify((err as Error).message, { type: 'error', multiLine: true })
      return null
    } finally {
      setBusy(false)
    }
  }
  return { run, busy, error }
}

/**
 * For react-admin's Create and Edit: the API's error of the last save, kept on screen beside the
 * notification (a 400 naming the field, a 409), and cleared when the form is saved again.
 */
export function useSaveError() {
  const notify = useNotify()
  const [error, setError] = useState('')
  return {
    error,
    /** Create's or Edit's `mutationOptions`. */
    mutationOptions: {
      onError: (err: unknown) => {
        setError((err as Error).message)
        notify((err as Error).message, { type: 'error', multiLine: true })
      },
    },
    /** Create's or Edit's `transform`: clears the last error as the form is sent. */
    transform: <T,>(data: T): T => {
      setError('')
      return data
    },
  }
}

export function ActionButton({ method, path, body, label, onDone, ...props }: { method: string; path: string; body?: unknown; label: string; onDone?: (answer: Answer<any>) => void } & Omit<ButtonProps, 'onClick'>) {
  const { run, busy } = useApiAction()
  return (
    <Button
      variant="outlined"
      size="small"
      disabled={busy || props.disabled}
      {...props}
      onClick={async () => {
        const answer = await run(method, path, body)
        if (answer) onDone?.(answer)
      }}
    >
      {label}
    </Button>
  )
}
