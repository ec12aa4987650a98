// The things to act on today: orders and GMV per day, orders by status, returns waiting for
// review, open tickets (SUPPORT and ADMIN), and searches that found nothing (CATALOG and ADMIN).
import { useEffect, useState } from 'react'
import { Box, Card, CardContent, MenuItem, TextField as MuiTextField, Typography } from '@mui/material'
import { Title, usePermissions } from 'react-admin'
import { api } from './api.ts'
import { defaultCatalogId } from './dataProvider.ts'

interface Stats {
  days: { date: string; orders: number; gmv: string }[]
  byStatus: { status: string; count: number }[]
}
interface Figures {
  stats?: Stats
  returnsWaiting?: number
  openTickets?: number
  errors: string[]
}

async function loadFigures(role: string): Promise<Figures> {
  const figures: Figures = { errors: [] }
  const tasks: Promise<void>[] = []
  const attempt = (task: () => Promise<void>) => tasks.push(task().catch((err: Error) => void figures.errors.push(err.message)))
  if (role === 'ADMIN' || role === 'SUPPORT') {
    attempt(async () => void (figures.stats = (await api<Stats>('GET', '/admin/orders/stats?days=14')).data))
    attempt(async () => {
      const [requested, review] = await Promise.all([api('GET', '/admin/returns?status=REQUESTED&limit=1'), api('GET', '/admin/returns?status=UNDER_REVIEW&limit=1')])
      figures.returnsWaiting = (requested.meta?.total ?? 0) + (review.meta?.total ?? 0)
    })
    attempt(async () => void (figures.openTickets = (await api('GET', '/admin/support/tickets?status=OPEN&limit=1')).meta?.total ?? 0))
  }

  await Promise.all(tasks)
  return figures
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Card sx={{ minWidth: 160, flex: '1 1 160px' }}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h4" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  )
}

/** Bars of orders per day with the GMV under each: plain SVG, no chart library to download. */
function DailyChart({ days }: { days: Stats['days'] }) {
  const most = Math.max(1, ...days.map((d) => d.orders))
  const width = 100 / days.length
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <svg viewBox="0 0 100 60" preserveAspectRatio="none" style={{ width: '100%', height: 180 }} role="img" aria-label="Orders per day">
        {days.map((d, i) => {
          const height = (d.orders / most) * 50
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${d.orders} orders, ₹${d.gmv}`}</title>
              <rect x={i * width + width * 0.15} y={52 - height} width={width * 0.7} height={height} fill="#1976d2" />
              <text x={i * width + width / 2} y={58} fontSize="2.6" textAnchor="middle">
                {d.date.slice(8)}
              </text>
            </g>
          )
        })}
      </svg>
      <table style={{ fontSize: 12, borderCollapse: 'collapse', width: '100%' }} data-testid="daily-table">
        <thead>
          <tr>
            <th align="left">Day</th>
            <th align="right">Orders</th>
            <th align="right">GMV (₹)</th>
          </tr>
        </thead>
        <tbody>
          {days.slice(-7).map((d) => (
            <tr key={d.date} data-date={d.date}>
              <td>{d.date}</td>
              <td align="right" className="orders">
                {d.orders}
              </td>
              <td align="right" className="gmv">
                {d.gmv}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  )
}

/** Searches that found nothing in one catalog (CATALOG and ADMIN): what shoppers want and do not find. */
function ZeroResultSearches() {
  const [catalogs, setCatalogs] = useState<{ id: string; name: string }[]>([])
  const [catalogId, setCatalogId] = useState('')
  const [queries, setQueries] = useState<{ query: string; searches: number }[] | string | null>(null)
  useEffect(() => {
    api<{ id: string; name: string }[]>('GET', '/admin/catalogs').then(
      (a) => {
        setCatalogs(a.data)
        void defaultCatalogId().then((first) => setCatalogId((current) => current || first))
      },
      (err: Error) => setQueries(err.message),
    )
  }, [])
  useEffect(() => {
    if (!catalogId) return
    api<{ zeroResultQueries: { query: string; searches: number }[] }>('GET', `/admin/catalogs/${catalogId}/search-analytics?days=30&limit=10`).then(
      (a) => setQueries(a.data.zeroResultQueries),
      (err: Error) => setQueries(err.message),
    )
  }, [catalogId])
  return (
    <Card>
      <CardContent>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="h6">Searches that found nothing (30 days)</Typography>
          <MuiTextField select size="small" label="Catalog" value={catalogId} onChange={(e) => setCatalogId(e.target.value)} sx={{ minWidth: 220 }} data-testid="zero-results-catalog">
            {catalogs.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </MuiTextField>
        </Box>
        {typeof queries === 'string' ? (
          <Typography color="error">{queries}</Typography>
        ) : !queries || queries.length === 0 ? (
          <Typography data-testid="zero-results">None</Typography>
        ) : (
          <ul data-testid="zero-results">
            {queries.map((q) => (
              <li key={q.query} data-query={q.query}>
                {q.query} ({q.searches})
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}

export function Dashboard() {
  const { permissions, isPending } = usePermissions()
  const [figures, setFigures] = useState<Figures | null>(null)
  useEffect(() => {
    if (!isPending && permissions) void loadFigures(permissions).then(setFigures)
  }, [permissions, isPending])
  if (!figures) return <Typography sx={{ p: 2 }}>Loading the dashboard…</Typography>
  const today = figures.stats?.days.at(-1)
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Title title="Dashboard" />
      {figures.errors.map((e) => (
        <Typography key={e} color="error">
          {e}
        </Typography>
      ))}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
        {today && <Figure label="Orders today" value={today.orders} testId="orders-today" />}
        {today && <Figure label="GMV today (₹)" value={today.gmv} testId="gmv-today" />}
        {figures.returnsWaiting !== undefined && <Figure label="Returns waiting for review" value={figures.returnsWaiting} testId="returns-waiting" />}
        {figures.openTickets !== undefined && <Figure label="Open tickets" value={figures.openTickets} testId="open-tickets" />}
      </Box>
      {figures.stats && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
          <Card sx={{ flex: '2 1 320px' }}>
            <CardContent>
              <Typography variant="h6">Orders and GMV, last 14 days</Typography>
              <DailyChart days={figures.stats.days} />
            </CardContent>
          </Card>
          <Card sx={{ flex: '1 1 220px' }}>
            <CardContent>
              <Typography variant="h6">Orders by status</Typography>
              <table data-testid="by-status" style={{ width: '100%' }}>
                <tbody>
                  {figures.stats.byStatus.map((s) => (
                    <tr key={s.status} data-status={s.status}>
                      <td>{s.status}</td>
                      <td align="right">{s.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </CardContent>
          </Card>
        </Box>
      )}
      {(permissions === 'ADMIN' || permissions === 'CATALOG') && <ZeroResultSearches />}
    </Box>
  )
}
