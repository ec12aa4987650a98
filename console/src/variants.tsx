// A product's options and variants on its edit page (CATALOG and ADMIN; issue #41 step 6, decision
// 0043): up to three options with ordered values, and the grid of its variants, one row per
// combination (SKU, price, MRP, stock, barcode, weight, active), generated from the options; bulk
// price, MRP and stock edits of the rows selected. Saved as a whole (PUT .../variants), or, when
// one stored variant alone changed, that variant (PATCH .../variants/{variantId}). The API's 400
// and 409 (naming `variants[2].sku`) stay beside the grid, their cells marked.
import { memo, useCallback, useState } from 'react'
import { Alert, Box, Button, Card, CardContent, Checkbox, MenuItem, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material'
import { useNotify, useRecordContext, useRefresh } from 'react-admin'
import { api } from './api.ts'
import {
  type AdminVariant,
  type BulkField,
  type BulkMode,
  MAX_OPTIONS,
  type ProductOption,
  type Row,
  bulkEdit,
  cellsNamed,
  generate,
  gridBody,
  oneVariantChanged,
  rowsOf,
  titleOf,
  withOptionAdded,
  withOptionRemoved,
  withValueMovedEarlier,
  withValueRemoved,
} from './variant-grid.ts'

/** Inputs sized for a grid: react-admin's theme fills the width and pads for a label. */
const COMPACT = { size: 'small', variant: 'outlined', margin: 'none', fullWidth: false } as const

interface Product {
  id: string
  slug: string
  options: ProductOption[]
  variants: AdminVariant[]
  updatedAt: string
}

/** The section, started afresh whenever the product read changes (a save, a refresh). */
export function VariantEditor() {
  const product = useRecordContext<Product>()
  if (!product?.variants) return null
  return <VariantSection key={JSON.stringify([product.updatedAt, product.options, product.variants])} product={product} />
}

function VariantSection({ product }: { product: Product }) {
  const notify = useNotify()
  const refresh = useRefresh()
  const [options, setOptions] = useState<ProductOption[]>(product.options)
  const [rows, setRows] = useState<Row[]>(() => rowsOf(product.options, product.variants))
  const [problem, setProblem] = useState('')
  const [notice, setNotice] = useState('')
  const [busy, setBusy] = useState(false)
  const [stale, setStale] = useState(false)

  const change = useCallback((key: string, fields: Partial<Row>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...fields } : r))), [])

  function apply(next: { options: ProductOption[]; rows: Row[]; removed?: number }) {
    setOptions(next.options)
    setRows(next.rows)
    setNotice(next.removed ? `${next.removed} ${next.removed === 1 ? 'row' : 'rows'} removed (their combination no longer exists)` : '')
  }

  if (options.length === 0) {
    return (
      <Card sx={{ mt: 2 }} data-testid="variant-editor">
        <CardContent>
          <Typography variant="h6" component="h2">
            Options and variants
          </Typography>
          <Typography variant="body2" sx={{ my: 1 }}>
            No options: the product is sold as one variant, with the SKU, price, MRP and stock above. Options (Size, Colour, Pack) make a variant of each combination; the product's fields become the first one.
          </Typography>
          <Button variant="outlined" onClick={() => apply(withOptionAdded(options, rows))}>
            Add options
          </Button>
        </CardContent>
      </Card>
    )
  }

  const renameOption = (i: number, name: string) => setOptions(options.map((o, k) => (k === i ? { ...o, name } : o)))
  const renameValue = (i: number, j: number, value: string) => setOptions(options.map((o, k) => (k === i ? { ...o, values: o.values.map((v, x) => (x === j ? value : v)) } : o)))
  const addValue = (i: number, value: string) => {
    const text = value.trim()
    if (!text) return false
    if (options[i]!.values.some((v) => v.trim().toLowerCase() === text.toLowerCase())) {
      setProblem(`${options[i]!.name || 'This option'} already has the value ${text}`)
      return false
    }
    setOptions(options.map((o, k) => (k === i ? { ...o, values: [...o.values, text] } : o)))
    setProblem('')
    return true
  }

  function generateRows() {
    const made = generate(options, rows, product.slug)
    if ('problem' in made) return setProblem(made.problem)
    setProblem('')
    setRows(made.rows)
    setNotice(`${made.rows.length} variants: ${made.added} added${made.removed ? `, ${made.removed} removed (their combination no longer exists)` : ''}`)
  }

  async function save() {
    const built = gridBody(options, rows)
    if ('problems' in built) return setProblem(built.problems.join('\n'))
    const loaded = gridBody(product.options, rowsOf(product.options, product.variants))
    const one = 'body' in loaded ? oneVariantChanged(loaded.body, built.body) : null
    setBusy(true)
    try {
      if (one) {
        const answer = await api('PATCH', `/admin/products/${product.id}/variants/${one.id}`, one.changes)
        notify(answer.message, { type: 'success' })
      } else {
        // PUT writes what the grid shows: refused when the product moved since it was read (another
        // person's edit, or an order that moved a stock this grid sends). A stock the grid did not
        // edit is left out of PUT and kept as it is then, so orders in between never refuse a save.
        const fresh = (await api<Product>('GET', `/admin/products/${product.id}`)).data
        const sent = new Set(built.body.variants.flatMap((v) => (v.id && v.stock !== undefined ? [v.id] : [])))
        const compared = (p: Product) => JSON.stringify([p.options, p.variants.map((v) => (sent.has(v.id) ? v : { ...v, stock: null }))])
        if (compared(fresh) !== compared(product)) {
          setStale(true)
          return setProblem(`The variants changed since this page read them (an order, or someone else's edit): ${changesOf(product, fresh)}. Nothing was saved; reload the grid and make the change again.`)
        }
        const answer = await api('PUT', `/admin/products/${product.id}/variants`, built.body)
        notify(answer.message, { type: 'success' })
      }
      setProblem('')
      refresh()
    } catch (err) {
      setProblem((err as Error).message)
      notify((err as Error).message, { type: 'error', multiLine: true })
    } finally {
      setBusy(false)
    }
  }

  const marked = cellsNamed(problem)
  const selected = rows.filter((r) => r.selected).length
  return (
    <Card sx={{ mt: 2 }} data-testid="variant-editor">
      <CardContent>
        <Typography variant="h6" component="h2">
          Options and variants
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          Up to {MAX_OPTIONS} options, their values in the order shoppers see them. Renaming a value renames it in the grid; removing one removes its rows. Nothing is written until the variants are saved.
        </Typography>
        <Stack spacing={2}>
          {options.map((o, i) => (
            <OptionEditor
              key={i}
              index={i}
              option={o}
              onRename={(name) => renameOption(i, name)}
              onRenameValue={(j, value) => renameValue(i, j, value)}
              onAddValue={(value) => addValue(i, value)}
              onRemoveValue={(j) => apply(withValueRemoved(options, rows, i, j))}
              onMoveValue={(j) => apply(withValueMovedEarlier(options, rows, i, j))}
              onRemove={() => apply(withOptionRemoved(options, rows, i))}
            />
          ))}
        </Stack>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 2 }}>
          <Button variant="outlined" disabled={options.length >= MAX_OPTIONS} onClick={() => apply(withOptionAdded(options, rows))}>
            Add option
          </Button>
          <Button variant="outlined" onClick={generateRows}>
            Generate combinations
          </Button>
        </Box>
        <BulkEdit selected={selected} onApply={(field, mode, value) => {
          const edited = bulkEdit(options, rows, field, mode, value)
          if ('problem' in edited) return setProblem(edited.problem)
          setProblem('')
          setRows(edited.rows)
          setNotice(`${selected} ${selected === 1 ? 'variant' : 'variants'} changed: save to write them`)
        }} onRemove={() => {
          setRows(rows.filter((r) => !r.selected))
          setNotice(`${selected} ${selected === 1 ? 'row' : 'rows'} removed: save to write it`)
        }} />
        {/* No width of its own (react-admin's layout is as wide as its widest content): the card's, scrolled inside. */}
        <TableContainer sx={{ width: 0, minWidth: '100%', overflowX: 'auto' }}>
          <Table size="small" data-testid="variant-grid" aria-label="Variants">
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={rows.length > 0 && selected === rows.length}
                    indeterminate={selected > 0 && selected < rows.length}
                    onChange={(e) => setRows(rows.map((r) => ({ ...r, selected: e.target.checked })))}
                    slotProps={{ input: { 'aria-label': 'Select all variants' } }}
                  />
                </TableCell>
                {options.map((o, i) => (
                  <TableCell key={i}>{o.name || `Option ${i + 1}`}</TableCell>
                ))}
                <TableCell>SKU</TableCell>
                <TableCell>Selling price (₹)</TableCell>
                <TableCell>MRP (₹)</TableCell>
                <TableCell>Stock</TableCell>
                <TableCell>Barcode</TableCell>
                <TableCell>Weight (g)</TableCell>
                <TableCell>Active</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((r, i) => (
                <VariantRow key={r.key} row={r} title={titleOf(options, r)} options={options} marked={[...marked].filter((c) => c.startsWith(`${i}.`)).map((c) => c.slice(c.indexOf('.') + 1)).join()} onChange={change} />
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {notice && (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="variants-notice">
            {notice}
          </Alert>
        )}
        {problem && (
          <Alert severity="error" sx={{ mt: 2, whiteSpace: 'pre-line' }} data-testid="variants-error">
            {problem}
          </Alert>
        )}
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button variant="contained" disabled={busy || stale} onClick={save}>
            Save variants
          </Button>
          {stale && (
            <Button variant="outlined" onClick={() => refresh()}>
              Reload the grid
            </Button>
          )}
        </Box>
      </CardContent>
    </Card>
  )
}

/** What moved between the grid read and the product now: "M / Red: stock 5 → 4". */
function changesOf(before: Product, now: Product): string {
  if (JSON.stringify(before.options) !== JSON.stringify(now.options)) return 'its options changed'
  const was = new Map(before.variants.map((v) => [v.id, v]))
  const moves = now.variants.flatMap((v) => {
    const old = was.get(v.id)
    if (!old) return [`${v.title ?? v.sku} added`]
    if (old.stock !== v.stock) return [`${v.title ?? v.sku}: stock ${old.stock} → ${v.stock}`]
    return JSON.stringify(old) === JSON.stringify(v) ? [] : [`${v.title ?? v.sku} edited`]
  })
  const gone = before.variants.filter((v) => !now.variants.some((n) => n.id === v.id)).map((v) => `${v.title ?? v.sku} removed`)
  return [...moves, ...gone].join(', ') || 'its variants changed'
}

function OptionEditor(props: {
  index: number
  option: ProductOption
  onRename: (name: string) => void
  onRenameValue: (j: number, value: string) => void
  onAddValue: (value: string) => boolean
  onRemoveValue: (j: number) => void
  onMoveValue: (j: number) => void
  onRemove: () => void
}) {
  const { index, option } = props
  const [typed, setTyped] = useState('')
  const name = option.name || `option ${index + 1}`
  const add = () => props.onAddValue(typed) && setTyped('')
  return (
    <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }} data-testid={`option-${index}`}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField {...COMPACT} label={`Option ${index + 1} name`} value={option.name} onChange={(e) => props.onRename(e.target.value)} placeholder="Size, Colour, Pack" />
        <Button size="small" onClick={props.onRemove} aria-label={`Remove option ${name}`}>
          Remove option
        </Button>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mt: 1 }}>
        {option.values.map((value, j) => (
          <Box key={j} sx={{ display: 'flex', alignItems: 'center' }}>
            <TextField {...COMPACT} value={value} onChange={(e) => props.onRenameValue(j, e.target.value)} slotProps={{ htmlInput: { 'aria-label': `${name} value ${j + 1}` } }} sx={{ width: 110 }} />
            {j > 0 && (
              <Button size="small" sx={{ minWidth: 0, px: 0.75 }} onClick={() => props.onMoveValue(j)} aria-label={`Move ${value} earlier`}>
                ←
              </Button>
            )}
            <Button size="small" sx={{ minWidth: 0, px: 0.75 }} onClick={() => props.onRemoveValue(j)} aria-label={`Remove ${value}`}>
              ✕
            </Button>
          </Box>
        ))}
        <TextField
          {...COMPACT}
          label={`New ${name} value`}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              add()
            }
          }}
          sx={{ width: 170 }}
        />
        <Button size="small" variant="outlined" onClick={add} aria-label={`Add ${name} value`}>
          Add
        </Button>
      </Box>
    </Box>
  )
}

const FIELDS: { id: BulkField; name: string }[] = [
  { id: 'sellingPrice', name: 'Selling price (₹)' },
  { id: 'mrp', name: 'MRP (₹)' },
  { id: 'stock', name: 'Stock' },
]

/** Sets the selected rows' price or MRP, or sets, adds to or takes from their stock. */
function BulkEdit({ selected, onApply, onRemove }: { selected: number; onApply: (field: BulkField, mode: BulkMode, value: string) => void; onRemove: () => void }) {
  const [field, setField] = useState<BulkField>('sellingPrice')
  const [mode, setMode] = useState<BulkMode>('set')
  const [value, setValue] = useState('')
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center', mb: 1 }} data-testid="bulk-edit">
      <Typography variant="body2" sx={{ minWidth: 90 }}>
        {selected} selected
      </Typography>
      <TextField
        {...COMPACT}
        select
        label="Change"
        value={field}
        onChange={(e) => {
          setField(e.target.value as BulkField)
          if (e.target.value !== 'stock') setMode('set')
        }}
        sx={{ minWidth: 160 }}
      >
        {FIELDS.map((f) => (
          <MenuItem key={f.id} value={f.id}>
            {f.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...COMPACT} select label="How" value={mode} onChange={(e) => setMode(e.target.value as BulkMode)} sx={{ minWidth: 120 }}>
        <MenuItem value="set">Set to</MenuItem>
        <MenuItem value="add" disabled={field !== 'stock'}>
          Add
        </MenuItem>
        <MenuItem value="subtract" disabled={field !== 'stock'}>
          Subtract
        </MenuItem>
      </TextField>
      <TextField {...COMPACT} label="Value" value={value} onChange={(e) => setValue(e.target.value)} slotProps={{ htmlInput: { inputMode: field === 'stock' ? 'numeric' : 'decimal' } }} sx={{ width: 120 }} />
      <Button variant="outlined" disabled={selected === 0} onClick={() => onApply(field, mode, value)}>
        Apply to selected
      </Button>
      <Button disabled={selected === 0} onClick={onRemove}>
        Remove selected rows
      </Button>
    </Box>
  )
}

const VariantRow = memo(function VariantRow({ row, title, options, marked, onChange }: { row: Row; title: string; options: ProductOption[]; marked: string; onChange: (key: string, fields: Partial<Row>) => void }) {
  const bad = new Set(marked.split(','))
  const cell = (field: 'sku' | 'sellingPrice' | 'mrp' | 'stock' | 'barcode' | 'weightGrams', label: string, width: number, inputMode?: 'numeric' | 'decimal') => (
    <TableCell>
      <TextField
        {...COMPACT}
        value={row[field]}
        error={bad.has(field)}
        onChange={(e) => onChange(row.key, { [field]: e.target.value })}
        slotProps={{ htmlInput: { 'aria-label': `${label} of ${title}`, inputMode } }}
        sx={{ width }}
      />
    </TableCell>
  )
  return (
    <TableRow data-testid="variant-row" selected={row.selected}>
      <TableCell padding="checkbox">
        <Checkbox checked={row.selected} onChange={(e) => onChange(row.key, { selected: e.target.checked })} slotProps={{ input: { 'aria-label': `Select ${title}` } }} />
      </TableCell>
      {options.map((o, i) => (
        <TableCell key={i} sx={{ whiteSpace: 'nowrap' }}>
          {o.values[row.picks[i] ?? -1] ?? '—'}
        </TableCell>
      ))}
      {cell('sku', 'SKU', 210)}
      {cell('sellingPrice', 'Selling price', 100, 'decimal')}
      {cell('mrp', 'MRP', 100, 'decimal')}
      {cell('stock', 'Stock', 80, 'numeric')}
      {cell('barcode', 'Barcode', 140, 'numeric')}
      {cell('weightGrams', 'Weight', 80, 'numeric')}
      <TableCell padding="checkbox">
        <Checkbox checked={row.isActive} onChange={(e) => onChange(row.key, { isActive: e.target.checked })} slotProps={{ input: { 'aria-label': `Active: ${title}` } }} />
      </TableCell>
    </TableRow>
  )
})
