// The console's theme: react-admin's own, with colours that meet WCAG AA contrast (4.5:1) where
// axe-core found they did not (issue #39): the app bar (react-admin's #2196f3 under white text is
// 3.1:1), buttons and links in MUI's #1976d2 on the page's grey, labels and helper text.
import { defaultTheme, type RaThemeOptions } from 'react-admin'

export const consoleTheme: RaThemeOptions = {
  ...defaultTheme,
  palette: {
    ...defaultTheme.palette,
    primary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    secondary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    error: { light: '#ef5350', main: '#c62828', dark: '#8e0000', contrastText: '#fff' },
    warning: { light: '#ff9800', main: '#a84300', dark: '#7a3000', contrastText: '#fff' },
    // Labels and helper text (MUI's 60 % black falls under 4.5:1 on filled inputs and toolbars; a
    // disabled field's helper text, such as "Choose a catalog first", is read and must be legible).
    text: { primary: 'rgba(0, 0, 0, 0.87)', secondary: 'rgba(0, 0, 0, 0.7)', disabled: 'rgba(0, 0, 0, 0.6)' },
  },
  components: {
    ...defaultTheme.components,
    // Form toolbars: react-admin's grey[300] leaves a Delete button's red under 4.5:1.
    RaToolbar: { styleOverrides: { root: { backgroundColor: '#f5f5f5' } } },
    // A field never grows past its container: a select showing a long catalog name ellipsizes rather
    // than widen a phone's screen (the dashboard was 449 px wide at 390 px).
    MuiFormControl: { styleOverrides: { root: { maxWidth: '100%' } } },
    // A row reached with Tab shows where the keyboard is (responsive.tsx makes rows focusable).
    RaDatagrid: { styleOverrides: { root: { '& .RaDatagrid-clickableRow:focus-visible': { outline: '3px solid #1565c0', outlineOffset: -3 } } } },
  },
}
