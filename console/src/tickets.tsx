// Tickets: the inbox (open first by default) and one conversation with its images, a reply box (with
// images attached through signed uploads) and the ticket's status.
import { useState } from 'react'
import { Box, Button, Card, CardContent, MenuItem, Paper, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, DateField, List, SearchInput, SelectInput, Show, TextField, useNotify, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { api, errorMessage } from './api.ts'
import { Images } from './images.tsx'
import { ResponsiveTable } from './responsive.tsx'

const STATUSES = ['OPEN', 'IN_PROGRESS', 'RESOLVED', 'CLOSED']
const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Topic or order number" />,
  <SelectInput key="status" source="status" choices={STATUSES.map((id) => ({ id, name: id }))} alwaysOn />,
]

export const TicketList = () => (
  <List filters={filters} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => r.topic} secondary={(r) => `${r.status}${r.order ? ` · ${r.order.orderNumber}` : ''}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="topic" sortable={false} />
        <TextField source="status" sortable={false} />
        <TextField source="order.orderNumber" label="Order" sortable={false} />
        <DateField source="updatedAt" showTime sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']

/**
 * Attaches images to the agent's reply: a signed upload slot for the ticket, the file PUT to it as
 * signed, its public URL kept for the reply (docs/support.md, "An agent's reply with images").
 */
function AttachImages({ ticketId, urls, onChange }: { ticketId: string; urls: string[]; onChange: (urls: string[]) => void }) {
  const notify = useNotify()
  const [busy, setBusy] = useState(false)
  const attach = async (files: FileList | null) => {
    const chosen = [...(files ?? [])].slice(0, 5 - urls.length)
    if (chosen.length === 0) return
    setBusy(true)
    try {
      const { data: slots } = await api<{ uploadUrl: string; publicUrl: string; headers: Record<string, string> }[]>('POST', `/admin/support/tickets/${ticketId}/uploads/signed-urls`, {
        files: chosen.map((file) => ({ fileName: file.name.replace(/[^\p{L}\p{M}\p{N} ._()-]/gu, '_').replace(/\.\.+/g, '.') || 'image', contentType: file.type, sizeBytes: file.size })),
      })
      for (const [i, slot] of slots.entries()) {
        const res = await fetch(slot.uploadUrl, { method: 'PUT', headers: slot.headers, body: chosen[i] })
        if (!res.ok) throw new Error(errorMessage(await res.json().catch(() => null), res.status))
      }
      onChange([...urls, ...slots.map((slot) => slot.publicUrl)])
    } catch (err) {
      notify((err as Error).message, { type: 'error', multiLine: true })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Box data-testid="reply-images">
      <Button component="label" variant="outlined" size="small" disabled={busy || urls.length >= 5}>
        {busy ? 'Uploading…' : 'Attach image'}
        <input hidden type="file" accept={IMAGE_TYPES.join(',')} multiple onChange={(e) => {
            const input = e.target
            void attach(input.files).then(() => {
              input.value = ''
            })
          }} />
      </Button>
      <Images urls={urls} />
    </Box>
  )
}

function Conversation() {
  const ticket = useRecordContext()
  const [reply, setReply] = useState('')
  const [images, setImages] = useState<string[]>([])
  const [status, setStatus] = useState('')
  if (!ticket) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">
          {ticket.topic}: <span data-testid="ticket-status">{ticket.status}</span>
        </Typography>
        <Typography variant="body2">{ticket.order ? `Order ${ticket.order.orderNumber} (${ticket.order.status})` : 'No order'}</Typography>
        <Paper variant="outlined" sx={{ p: 1, my: 1 }}>
          <Typography variant="caption">CUSTOMER · {ticket.createdAt}</Typography>
          <Typography>{ticket.detail}</Typography>
          <Images urls={ticket.imageUrls} />
        </Paper>
        <Box data-testid="messages">
          {(ticket.messages ?? []).map((m: Record<string, any>) => (
            <Paper key={m.id} variant="outlined" sx={{ p: 1, my: 1, ml: m.author === 'AGENT' ? { xs: 2, sm: 8 } : 0, bgcolor: m.author === 'AGENT' ? '#e3f2fd' : undefined }}>
              <Typography variant="caption">
                {m.author} · {m.createdAt}
              </Typography>
              <Typography className="message-body">{m.body}</Typography>
              <Images urls={m.imageUrls} />
            </Paper>
          ))}
        </Box>
        <Stack spacing={1} sx={{ mt: 2 }}>
          <MuiTextField label="Reply" multiline minRows={2} value={reply} onChange={(e) => setReply(e.target.value)} />
          {ticket.status !== 'CLOSED' && <AttachImages ticketId={String(ticket.id)} urls={images} onChange={setImages} />}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <ActionButton
              label="Send reply"
              variant="contained"
              disabled={!reply.trim()}
              method="POST"
              path={`/admin/support/tickets/${ticket.id}/messages`}
              body={images.length > 0 ? { body: reply, imageUrls: images } : { body: reply }}
              onDone={() => {
                setReply('')
                setImages([])
              }}
            />
            <MuiTextField select size="small" label="Status" value={status} onChange={(e) => setStatus(e.target.value)} sx={{ minWidth: 180 }}>
              {STATUSES.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </MuiTextField>
            <ActionButton label="Set status" disabled={!status} method="POST" path={`/admin/support/tickets/${ticket.id}/status`} body={{ status }} />
          </Stack>
        </Stack>
      </CardContent>
    </Card>
  )
}

export const TicketShow = () => (
  <Show actions={false} component="div">
    <Conversation />
  </Show>
)
