// Tables on a phone-width window: react-admin's SimpleList (one line of what matters, one of
// detail) instead of a Datagrid that would scroll sideways; elsewhere the Datagrid, its rows reachable
// and opened from the keyboard.
import { type ReactNode, useEffect, useRef } from 'react'
import { useMediaQuery, type Theme } from '@mui/material'
import { type RaRecord, type RowClickFunction, SimpleList } from 'react-admin'

export function ResponsiveTable({ primary, secondary, link = 'show', children }: { primary: (r: RaRecord) => ReactNode; secondary: (r: RaRecord) => ReactNode; link?: 'show' | 'edit' | false | RowClickFunction; children: ReactNode }) {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'))
  if (phone) return <SimpleList primaryText={primary} secondaryText={secondary} rowClick={link} />
  return <KeyboardRows>{children}</KeyboardRows>
}

const CLICKABLE_ROW = 'tr.RaDatagrid-clickableRow'

/**
 * Rows that open on click open from the keyboard too: each is in the tab order (with the theme's
 * focus ring), and Enter or Space on it does what a click does. react-admin's Datagrid makes rows
 * clickable but not focusable, so an order could not be opened without a mouse (issue #39).
 */
function KeyboardRows({ children }: { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = box.current
    if (!element) return
    const focusable = () => element.querySelectorAll<HTMLElement>(`${CLICKABLE_ROW}:not([tabindex])`).forEach((row) => (row.tabIndex = 0))
    focusable()
    const observer = new MutationObserver(focusable)
    observer.observe(element, { childList: true, subtree: true })
    const onKey = (event: KeyboardEvent) => {
      const row = event.target as HTMLElement
      if ((event.key === 'Enter' || event.key === ' ') && row.matches(CLICKABLE_ROW)) {
        event.preventDefault()
        row.click()
      }
    }
    element.addEventListener('keydown', onKey)
    return () => {
      observer.disconnect()
      element.removeEventListener('keydown', onKey)
    }
  }, [])
  return <div ref={box}>{children}</div>
}

/** A form toolbar that stays where the form ends on a phone (react-admin pins it to the bottom of the
 * window), for pages with more below the form: the COD rules, the GST seller. */
export const STATIC_TOOLBAR = { '&.RaToolbar-mobileToolbar': { position: 'static' } }
