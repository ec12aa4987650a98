// Who did what (issue #39): the audit log page (/audit-log, filters by record, person, operation and
// day) and the History card of the order, customer and product pages, both over GET /admin/audit-log.
// Each entry reads as a sentence: when, who, what they did, to what, and each field before → after.
import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material'
import { Title, useGetList, usePermissions } from 'react-admin'
import { formatRupees, formatTime } from './format.ts'

export interface AuditEntry {
  id: number
  at: string
  actorId: string
  actorEmail: string
  action: string
  requestId: string
  objectType: string
  objectId: string
  relatedId: string | null
  operation: 'INSERT' | 'UPDATE' | 'DELETE'
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
}

const OBJECT_TYPES = [
  'order', 'order_item', 'refund', 'shipment', 'ndr_action', 'return', 'ticket', 'ticket_message', 'customer', 'ledger_entry', 'catalog', 'category', 'product', 'product_variant', 'location', 'inventory_level',
  'partner', 'api_key', 'partner_pricing', 'cod_rules', 'cod_blocked_pincode', 'coupon', 'delivery_zone', 'zone_rule', 'gst_registration', 'gst_seller', 'admin',
]

/** `adminUpdateOrderStatus` -> "Update order status". */
export const actionInWords = (action: string) => {
  const words = action.replace(/^admin/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}
/** `sellingPrice` -> "selling price"; `order_item` -> "order item". */
const inWords = (name: string) => name.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()

/** Fields stored in paise (the log shows values as stored): shown as rupees. */
const PAISE = /(price|mrp|amount|total|charge|fee|discount|cgst|sgst|igst|taxableValue|lineTotal|Used|Value|maxCodValue|cap)$/i

function shown(field: string, value: unknown): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'number' && Number.isInteger(value) && PAISE.test(field) && !/points|percent|bps|count|limit|days/i.test(field)) {
    const sign = value < 0 ? '-' : ''
    const abs = Math.abs(value)
    return `${sign}${formatRupees(`${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`)}`
  }
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value)) return formatTime(value)
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/** The fields of one entry: "status: CONFIRMED → PACKED", or the values made or removed. */
function Changes({ entry }: { entry: AuditEntry }) {
  const fields = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])].filter((f) => f !== 'id' && f !== 'createdAt')
  return (
    <Box component="ul" sx={{ m: 0, pl: 2.5, wordBreak: 'break-word' }}>
      {fields.map((field) => (
        <li key={field}>
          <Typography variant="body2" component="span">
            {inWords(field)}:{' '}
            {entry.operation === 'UPDATE' ? `${shown(field, entry.before?.[field])} → ${shown(field, entry.after?.[field])}` : shown(field, (entry.after ?? entry.before)?.[field])}
          </Typography>
        </li>
      ))}
    </Box>
  )
}

const VERB = { INSERT: 'made', UPDATE: 'changed', DELETE: 'removed' } as const

function Entries({ entries }: { entries: AuditEntry[] }) {
  return (
    <Stack component="ol" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="audit-entries">
      {entries.map((entry) => (
        <Box component="li" key={entry.id} sx={{ borderBottom: '1px solid #eee', pb: 1 }}>
          <Typography variant="body2">
            <strong>{formatTime(entry.at)}</strong> · {entry.actorEmail} · {actionInWords(entry.action)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {inWords(entry.objectType)} {entry.objectId} {VERB[entry.operation]}
          </Typography>
          <Changes entry={entry} />
        </Box>
      ))}
    </Stack>
  )
}

/** One page of the log for these filters; refreshed with the page (after an action). */
function usePage(filter: Record<string, string>, size: number) {
  const [page, setPage] = useState(1)
  const key = JSON.stringify(filter)
  useEffect(() => setPage(1), [key])
  const { data, total, error } = useGetList<AuditEntry>('auditLog', { pagination: { page, perPage: size }, sort: { field: 'at', order: 'DESC' }, filter })
  const totalPages = Math.ceil((total ?? 0) / size)
  return { page, setPage, entries: data, total: total ?? 0, totalPages, error: error ? (error as Error).message : null }
}

function Pager({ page, setPage, totalPages, total }: { page: number; setPage: (n: number) => void; totalPages: number; total: number }) {
  if (totalPages <= 1) return null
  return (
    <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
      <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </Button>
      <Typography variant="body2">
        Page {page} of {totalPages} ({total} entries)
      </Typography>
      <Button disabled={page >= totalPages} onClick={() => setPage(page + 1)}>
        Next
      </Button>
    </Stack>
  )
}

/** The History card of an order, customer or product page: its entries and those of the records under it (ADMIN and SUPPORT). */
export function History({ object }: { object: string | undefined }) {
  const { permissions } = usePermissions()
  if ((permissions !== 'ADMIN' && permissions !== 'SUPPORT') || !object) return null
  return <HistoryOf object={object} />
}

function HistoryOf({ object }: { object: string }) {
  const { page, setPage, entries, total, totalPages, error } = usePage({ object }, 10)
  return (
    <Card sx={{ mt: 2 }} data-testid="history">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          History
        </Typography>
        {error && <Alert severity="error">{error}</Alert>}
        {entries?.length === 0 && <Typography variant="body2">No change made in the back office yet.</Typography>}
        {entries && <Entries entries={entries} />}
        <Pager page={page} setPage={setPage} totalPages={totalPages} total={total} />
      </CardContent>
    </Card>
  )
}

/** /audit-log?object=&objectType=&day=: the whole log, newest first. */
export function AuditLogPage() {
  const location = useLocation()
  const navigate = useNavigate()
  const params = new URLSearchParams(location.search)
  const filters: Record<string, string> = {}
  for (const name of ['object', 'objectType', 'actorId', 'action']) {
    const value = params.get(name)
    if (value) filters[name] = value
  }
  // A day in India's time: from its midnight IST to the next.
  const day = params.get('day')
  if (day && /^\d{4}-\d\d-\d\d$/.test(day)) {
    const from = new Date(`${day}T00:00:00+05:30`)
    filters.from = from.toISOString()
    filters.to = new Date(from.getTime() + 86_400_000).toISOString()
  }
  const { page, setPage, entries, total, totalPages, error } = usePage(filters, 25)
  const [object, setObject] = useState(params.get('object') ?? '')
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(location.search)
    if (value) next.set(name, value)
    else next.delete(name)
    navigate(`/audit-log?${next.toString()}`)
  }
  return (
    <Card sx={{ mt: 1 }}>
      <Title title="Audit log" />
      <CardContent>
        <Typography variant="h5" component="h2" gutterBottom>
          Audit log
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }}>
          <TextField
            label="Record id"
            size="small"
            value={object}
            onChange={(e) => setObject(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && set('object', object.trim())}
            helperText="An order, customer, product… id; Enter"
          />
          <TextField select label="Kind of record" size="small" sx={{ minWidth: 200 }} value={params.get('objectType') ?? ''} onChange={(e) => set('objectType', e.target.value)}>
            <MenuItem value="">Any</MenuItem>
            {OBJECT_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {inWords(type)}
              </MenuItem>
            ))}
          </TextField>
          <TextField label="Day" type="date" size="small" value={day ?? ''} onChange={(e) => set('day', e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        </Stack>
        {error && <Alert severity="error">{error}</Alert>}
        {entries?.length === 0 && <Typography>No entry.</Typography>}
        {entries && <Entries entries={entries} />}
        <Pager page={page} setPage={setPage} totalPages={totalPages} total={total} />
      </CardContent>
    </Card>
  )
}
