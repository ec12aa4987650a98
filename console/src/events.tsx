// Webhook events (ADMIN): every partner's events, filtered by status and type; one event with every
// delivery attempt and its answer; replay one, or every failed one.
import { Card, CardContent, Stack, Typography } from '@mui/material'
import { Datagrid, DateField, List, SelectInput, Show, TextField, TextInput, TopToolbar, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { Rows } from './orders.tsx'
import { ResponsiveTable } from './responsive.tsx'

const STATUSES = ['PENDING', 'DELIVERED', 'FAILED']
const filters = [
  <SelectInput key="status" source="status" choices={STATUSES.map((id) => ({ id, name: id }))} alwaysOn />,
  <TextInput key="type" source="type" alwaysOn />,
  <TextInput key="subjectId" source="subjectId" label="Order or subject ID" />,
]

export const EventList = () => (
  <List filters={filters} perPage={25} actions={<TopToolbar><ActionButton label="Replay every failed event" method="POST" path="/admin/events/replay-failed" body={{}} /></TopToolbar>} exporter={false}>
    <ResponsiveTable primary={(r) => r.type} secondary={(r) => `${r.status} · ${r.createdAt}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="type" sortable={false} />
        <TextField source="status" sortable={false} />
        <TextField source="attempts" sortable={false} />
        <TextField source="partnerId" sortable={false} />
        <DateField source="createdAt" showTime sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

function EventDetail() {
  const event = useRecordContext()
  if (!event) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">
          {event.type}: {event.status}
        </Typography>
        <Stack direction="row" sx={{ my: 2 }}>
          <ActionButton label="Replay" variant="contained" method="POST" path={`/admin/events/${event.id}/replay`} />
        </Stack>
        <Rows title="Deliveries" rows={event.deliveries} columns={['url', 'statusCode', 'error', 'durationMs', 'createdAt']} />
        <Typography variant="subtitle1" sx={{ fontWeight: 'bold' }}>
          Data
        </Typography>
        <pre style={{ whiteSpace: 'pre-wrap', fontSize: 12 }}>{JSON.stringify(event.data, null, 2)}</pre>
      </CardContent>
    </Card>
  )
}

export const EventShow = () => (
  <Show actions={false} component="div">
    <EventDetail />
  </Show>
)
