// A partner or catalog picker for the pages that are not lists (COD rules, GST seller): a select of
// the API's partners or catalogs, set to the first one once they are loaded.
import { useEffect, useState } from 'react'
import { Alert, Box, MenuItem, TextField } from '@mui/material'
import { api } from './api.ts'

interface Named {
  id: string
  name: string
}

function ApiPicker({ label, path, value, onChange, testId }: { label: string; path: string; value: string; onChange: (id: string) => void; testId: string }) {
  const [options, setOptions] = useState<Named[]>([])
  const [error, setError] = useState('')
  useEffect(() => {
    api<Named[]>('GET', path).then(
      (a) => {
        setOptions(a.data)
        if (!value && a.data[0]) onChange(a.data[0].id)
      },
      (err: Error) => setError(err.message),
    )
    // Loaded once: the list does not change while the page is open.
  }, [path])
  if (error) return <Alert severity="error">{error}</Alert>
  // A grid track of at most 360 px that may shrink to nothing: a long name never widens a phone's page.
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 360px)' }}>
      <TextField select fullWidth size="small" label={label} value={options.length > 0 ? value : ''} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {options.map((o) => (
          <MenuItem key={o.id} value={o.id}>
            {o.name}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  )
}

export const PartnerPicker = (props: { value: string; onChange: (id: string) => void }) => <ApiPicker label="Partner" path="/admin/partners?limit=100" testId="partner-picker" {...props} />
export const CatalogPicker = (props: { value: string; onChange: (id: string) => void }) => <ApiPicker label="Catalog" path="/admin/catalogs" testId="catalog-picker" {...props} />
