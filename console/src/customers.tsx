// Customers (SUPPORT and ADMIN): the server-paged list (phone, email, name) and one customer with
// balances, addresses, recent orders, returns and tickets; block and unblock.
import { Card, CardContent, Stack, Typography } from '@mui/material'
import { BooleanField, Datagrid, DateField, List, Show, TextField, TextInput, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { Rows } from './orders.tsx'
import { ResponsiveTable } from './responsive.tsx'

const filters = [
  <TextInput key="phone" source="phone" alwaysOn />,
  <TextInput key="email" source="email" />,
  <TextInput key="name" source="name" />,
]

export const CustomerList = () => (
  <List filters={filters} perPage={25} exporter={false}>
    <ResponsiveTable primary={(r) => r.name || r.phone} secondary={(r) => `${r.phone}${r.email ? ` · ${r.email}` : ''}`} link="show">
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="name" sortable={false} />
        <TextField source="phone" sortable={false} />
        <TextField source="email" sortable={false} />
        <BooleanField source="blocked" sortable={false} />
        <DateField source="createdAt" sortable={false} />
      </Datagrid>
    </ResponsiveTable>
  </List>
)

function CustomerDetail() {
  const c = useRecordContext()
  if (!c) return null
  return (
    <Card>
      <CardContent>
        <Typography variant="h5">{c.name || c.phone}</Typography>
        <Typography variant="body2">
          {c.phone} · {c.email || 'no email'} · partner {c.partnerId ?? ''} {c.blocked ? `· BLOCKED: ${c.blockedReason ?? ''}` : ''}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ my: 2 }}>
          <ActionButton label="Block" color="error" method="POST" path={`/admin/customers/${c.id}/block`} body={{ reason: 'Blocked from the console' }} />
          <ActionButton label="Unblock" method="POST" path={`/admin/customers/${c.id}/unblock`} />
        </Stack>
        <Rows title="Balances" rows={c.balances ? [c.balances] : undefined} columns={['walletCash', 'rewardPoints']} />
        <Rows title="Addresses" rows={c.addresses} columns={['name', 'line1', 'city', 'pincode']} />
        <Rows title="Recent orders" rows={c.recentOrders} columns={['orderNumber', 'status', 'paymentStatus', 'totalAmount', 'createdAt']} />
        <Rows title="Returns" rows={c.recentReturns} columns={['id', 'status', 'reason', 'requestedAmount']} />
        <Rows title="Tickets" rows={c.recentTickets} columns={['topic', 'status', 'updatedAt']} />
      </CardContent>
    </Card>
  )
}

export const CustomerShow = () => (
  <Show actions={false} component="div">
    <CustomerDetail />
  </Show>
)
