// Tables on a phone-width window: react-admin's SimpleList (one line of what matters, one of
// detail) instead of a Datagrid that would scroll sideways.
import type { ReactNode } from 'react'
import { useMediaQuery, type Theme } from '@mui/material'
import { type RaRecord, SimpleList } from 'react-admin'

export function ResponsiveTable({ primary, secondary, link = 'show', children }: { primary: (r: RaRecord) => ReactNode; secondary: (r: RaRecord) => ReactNode; link?: 'show' | 'edit'; children: ReactNode }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'))
  if (phone) return <SimpleList primaryText={primary} secondaryText={secondary} linkType={link} />
  return <>{children}</>
}
