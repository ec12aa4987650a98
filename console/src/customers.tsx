// Customers (SUPPORT and ADMIN): the server-paged list (phone, email, name) and one customer with
// balances, addresses, recent orders, returns and tickets; block and unblock.
import { useState } from 'react'
import { Card, CardContent, MenuItem, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { BooleanField, Datagrid, DateField, List, Show, TextField, TextInput, useRecordContext } from 'react-admin'
import { ActionButton } from './actions.tsx'
import { History } from './audit.tsx'
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

/** Wallet Cash (rupees) or Reward Points (whole points): positive credits, negative debits. */
function BalanceAdjustment({ userId }: { userId: string }) {
  const [kind, setKind] = useState('WALLET_CASH')
  const [amount, setAmount] = useState('')
  const [reason, setReason] = useState('')
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
      <MuiTextField select size="small" label="Balance" value={kind} onChange={(e) => setKind(e.target.value)} sx={{ minWidth: 170 }}>
        <MenuItem value="WALLET_CASH">Wallet Cash (₹)</MenuItem>
        <MenuItem value="REWARD_POINTS">Reward Points</MenuItem>
      </MuiTextField>
      <MuiTextField size="small" label="Amount (negative debits)" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <MuiTextField size="small" label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} sx={{ flex: 1 }} />
      <ActionButton label="Adjust" disabled={!amount || !reason} method="POST" path={`/admin/customers/${userId}/ledger`} body={{ kind, amount, reason }} onDone={() => setAmount('')} />
    </Stack>
  )
}

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
        <Rows title="Balances" rows={c.balances ? [c.balances] : undefined} columns={['walletCash', 'rewardPoints']} testId="balances" />
        <BalanceAdjustment userId={String(c.id)} />
        <Rows title="Addresses" rows={c.addresses} columns={['name', 'line1', 'city', 'pincode']} />
        <Rows title="Recent orders" rows={c.recentOrders} columns={['orderNumber', 'status', 'paymentStatus', 'totalAmount', 'createdAt']} />
        <Rows title="Returns" rows={c.recentReturns} columns={['id', 'status', 'reason', 'requestedAmount']} />
        <Rows title="Tickets" rows={c.recentTickets} columns={['topic', 'status', 'updatedAt']} />
        <History object={String(c.id)} />
      </CardContent>
    </Card>
  )
}

export const CustomerShow = () => (
  <Show actions={false} component="div">
    <CustomerDetail />
  </Show>
)
