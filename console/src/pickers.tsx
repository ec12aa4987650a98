// Partner, catalog and GST registration pickers for the pages that are not lists (COD rules, GSTR-1
// and catalog sellers, pricing rules); partner and catalog pickers are set to the first one once
// loaded. Partners and registrations are searched on the server as the operator types (a page of
// 20: a merchant may have many); catalogs are a handful, read whole.
import { useEffect, useState } from 'react'
import { Alert, Autocomplete, Box, MenuItem, TextField } from '@mui/material'
import { api, query } from './api.ts'

interface Named {
  id: string
  name: string
}

type PickerProps = { value: string; onChange: (id: string) => void }

/** A grid track of at most 360 px that may shrink to nothing: a long name never widens a phone's page. */
const Track = ({ children }: { children: React.ReactNode }) => <Box sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 360px)' }}>{children}</Box>

export function PartnerPicker({ value, onChange }: PickerProps) {
  const [typed, setTyped] = useState('')
  const [options, setOptions] = useState<Named[]>([])
  const [selected, setSelected] = useState<Named | null>(null)
  const [error, setError] = useState('')
  useEffect(() => {
    // Asked a quarter of a second after the last key, not on every key.
    const timer = setTimeout(() => {
      api<Named[]>('GET', `/admin/partners${query({ limit: 20, search: typed.trim() })}`).then(
        (a) => {
          setOptions(a.data)
          if (!value && !selected && a.data[0]) {
            setSelected(a.data[0])
            onChange(a.data[0].id)
          }
        },
        (err: Error) => setError(err.message),
      )
    }, 250)
    return () => clearTimeout(timer)
  }, [typed])
  if (error) return <Alert severity="error">{error}</Alert>
  return (
    <Track>
      <Autocomplete
        options={options}
        value={selected}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(found) => found}
        onInputChange={(_, text, reason) => reason === 'input' && setTyped(text)}
        onChange={(_, picked) => {
          if (!picked) return
          setSelected(picked)
          onChange(picked.id)
        }}
        renderInput={(params) => <TextField {...params} size="small" label="Partner" placeholder="Type to search" />}
        data-testid="partner-picker"
      />
    </Track>
  )
}

export function CatalogPicker({ value, onChange }: PickerProps) {
  const [options, setOptions] = useState<Named[]>([])
  const [error, setError] = useState('')
  useEffect(() => {
    api<Named[]>('GET', '/admin/catalogs').then(
      (a) => {
        setOptions(a.data)
        if (!value && a.data[0]) onChange(a.data[0].id)
      },
      (err: Error) => setError(err.message),
    )
  }, [])
  if (error) return <Alert severity="error">{error}</Alert>
  return (
    <Track>
      <TextField select fullWidth size="small" label="Catalog" value={options.length > 0 ? value : ''} onChange={(e) => onChange(e.target.value)} data-testid="catalog-picker">
        {options.map((o) => (
          <MenuItem key={o.id} value={o.id}>
            {o.name}
          </MenuItem>
        ))}
      </TextField>
    </Track>
  )
}

/** A GST registration as the GSTR-1 download needs it. */
export interface RegistrationOption {
  id: string
  gstin: string
  legalName: string
  filingFrequency: 'MONTHLY' | 'QUARTERLY'
}

/** A GST registration, searched on the server by GSTIN or name as the operator types (a page of 20). */
export function RegistrationPicker({ value, onChange }: { value: RegistrationOption | null; onChange: (r: RegistrationOption) => void }) {
  const [typed, setTyped] = useState('')
  const [options, setOptions] = useState<RegistrationOption[]>([])
  const [error, setError] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => {
      api<RegistrationOption[]>('GET', `/admin/gst/registrations${query({ limit: 20, search: typed.trim() })}`).then(
        (a) => setOptions(a.data),
        (err: Error) => setError(err.message),
      )
    }, 250)
    return () => clearTimeout(timer)
  }, [typed])
  if (error) return <Alert severity="error">{error}</Alert>
  return (
    <Track>
      <Autocomplete
        options={value && !options.some((o) => o.id === value.id) ? [value, ...options] : options}
        value={value}
        getOptionLabel={(o) => `${o.gstin} · ${o.legalName}`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        filterOptions={(found) => found}
        onInputChange={(_, text, reason) => reason === 'input' && setTyped(text)}
        onChange={(_, picked) => picked && onChange(picked)}
        renderInput={(params) => <TextField {...params} size="small" label="GSTIN" placeholder="Type a GSTIN or a name" />}
        data-testid="registration-picker"
      />
    </Track>
  )
}
