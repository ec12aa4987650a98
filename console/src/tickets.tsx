// Tickets: the inbox (open first by default) and one conversation with its images, a reply box and
// the ticket's status.
import { useState } from 'react'
import { Box, Card, CardContent, MenuItem, Paper, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { Datagrid, DateField, List, SearchInput, SelectInput, Show, TextField, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
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

function Conversation() {
  const ticket = useRecordContext()
  const [reply, setReply] = useState('')
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
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
            <ActionButton label="Send reply" variant="contained" disabled={!reply.trim()} method="POST" path={`/admin/support/tickets/${ticket.id}/messages`} body={{ body: reply }} onDone={() => setReply('')} />
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
