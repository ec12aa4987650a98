// The one search box (issue #39): in the app bar of every screen for SUPPORT and ADMIN, Enter opens
// /search?q=, the hits of GET /admin/search (orders, customers, products, every partner's), each a
// link to its page, exact hits first, page by page.
import { type KeyboardEvent, useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { Alert, Box, Button, Card, CardContent, Chip, InputBase, Link, Stack, Typography } from '@mui/material'
import SearchIcon from '@mui/icons-material/Search'
import { Title, usePermissions } from 'react-admin'
import { api, type Answer, query } from './api.ts'
import { formatRupees, formatTime } from './format.ts'

interface Hit {
  type: 'ORDER' | 'CUSTOMER' | 'PRODUCT'
  id: string
  title: string
  subtitle: string
  exact: boolean
  status: string
  amount: string | null
  partnerId: string | null
  createdAt: string
}

const PAGE_SIZE = 20
const LABEL: Record<Hit['type'], string> = { ORDER: 'Order', CUSTOMER: 'Customer', PRODUCT: 'Product' }

/** Where a hit's page is in the console. */
export function hitLink(hit: Pick<Hit, 'type' | 'id'>): string {
  if (hit.type === 'ORDER') return `#/orders/${hit.id}/show`
  if (hit.type === 'CUSTOMER') return `#/customers/${hit.id}/show`
  return `#/products/${hit.id}`
}

/** The app bar's box: Enter searches (2 visible characters at least, as the API asks). */
export function SearchBox() {
  const { permissions } = usePermissions()
  const navigate = useNavigate()
  const location = useLocation()
  const [text, setText] = useState('')
  // The box shows what the results page searched, when it is open.
  useEffect(() => {
    if (location.pathname === '/search') setText(new URLSearchParams(location.search).get('q') ?? '')
  }, [location.pathname, location.search])
  if (permissions !== 'ADMIN' && permissions !== 'SUPPORT') return null
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return
    const q = text.trim()
    if (q.replace(/\s/g, '').length >= 2) navigate(`/search${query({ q })}`)
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', bgcolor: 'rgba(0,0,0,0.25)', borderRadius: 1, px: 1, mr: 1, width: { xs: 160, sm: 320 } }}>
      <SearchIcon fontSize="small" sx={{ mr: 1 }} />
      <InputBase
        placeholder="Order, AWB, phone, name, SKU…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        inputProps={{ 'aria-label': 'Search orders, customers and products', maxLength: 100 }}
        sx={{ color: 'inherit', flex: 1 }}
      />
    </Box>
  )
}

/** /search?q=: the hits, page by page. */
export function SearchPage() {
  const location = useLocation()
  const q = new URLSearchParams(location.search).get('q') ?? ''
  const [page, setPage] = useState(1)
  const [answer, setAnswer] = useState<Answer<Hit[]> | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setPage(1), [q])
  useEffect(() => {
    let current = true
    setError(null)
    api<Hit[]>('GET', `/admin/search${query({ q, page, limit: PAGE_SIZE })}`)
      .then((a) => current && setAnswer(a))
      .catch((e: Error) => current && (setAnswer(null), setError(e.message)))
    return () => {
      current = false
    }
  }, [q, page])
  const meta = answer?.meta
  return (
    <Card sx={{ mt: 1 }}>
      <Title title={`Search: ${q}`} />
      <CardContent>
        {error && <Alert severity="error">{error}</Alert>}
        {answer && answer.data.length === 0 && <Typography>Nothing found for “{q}”.</Typography>}
        {answer && answer.data.length > 0 && (
          <Stack spacing={1} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="search-hits">
            {answer.data.map((hit) => (
              <Box component="li" key={`${hit.type}:${hit.id}`} sx={{ display: 'flex', gap: 1.5, alignItems: 'baseline', flexWrap: 'wrap', borderBottom: '1px solid #eee', pb: 1 }}>
                <Chip size="small" label={LABEL[hit.type]} color={hit.type === 'ORDER' ? 'primary' : hit.type === 'CUSTOMER' ? 'secondary' : 'default'} />
                <Link href={hitLink(hit)} sx={{ fontWeight: 'bold' }}>
                  {hit.title}
                </Link>
                {hit.exact && <Chip size="small" variant="outlined" label="exact" />}
                <Typography variant="body2" color="text.secondary">
                  {hit.subtitle}
                </Typography>
                <Typography variant="body2">{hit.status}</Typography>
                {hit.amount !== null && <Typography variant="body2">{formatRupees(hit.amount)}</Typography>}
                <Typography variant="body2" color="text.secondary" sx={{ ml: 'auto' }}>
                  {formatTime(hit.createdAt)}
                </Typography>
              </Box>
            ))}
          </Stack>
        )}
        {meta && meta.totalPages > 1 && (
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
            <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Typography variant="body2">
              Page {meta.page} of {meta.totalPages} ({meta.total} found)
            </Typography>
            <Button disabled={page >= meta.totalPages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </Stack>
        )}
      </CardContent>
    </Card>
  )
}
