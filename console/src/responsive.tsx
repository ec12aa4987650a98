// Tables on a phone-width window: react-admin's SimpleList (one line of what matters, one of
// detail) instead of a Datagrid that would scroll sideways.
import type { ReactNode } from 'react'
import { useMediaQuery, type Theme } from '@mui/material'
import { type RaRecord, type RowClickFunction, SimpleList } from 'react-admin'

export function ResponsiveTable({ primary, secondary, link = 'show', children }: { primary: (r: RaRecord) => ReactNode; secondary: (r: RaRecord) => ReactNode; link?: 'show' | 'edit' | false | RowClickFunction; children: ReactNode }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'))
  if (phone) return <SimpleList primaryText={primary} secondaryText={secondary} rowClick={link} />
  return <>{children}</>
}

/** A form toolbar that stays where the form ends on a phone (react-admin pins it to the bottom of the
 * window), for pages with more below the form: the COD rules, the GST seller. */
export const STATIC_TOOLBAR = { '&.RaToolbar-mobileToolbar': { position: 'static' } }
