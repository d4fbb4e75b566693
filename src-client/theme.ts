import { type CSSVariablesResolver, createTheme } from '@mantine/core'

/**
 * SPEC 9: text at 87% (high emphasis) and 60% (low emphasis) of white (dark) or black (light);
 * background dark teal-black or light grey; surface 1 dark grey or near-white; surface 2 a
 * lighter dark grey or white. Components read the surfaces through --mes-surface-1/2.
 */
export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    Paper: { defaultProps: { bg: 'var(--mes-surface-1)' } },
    Card: { defaultProps: { bg: 'var(--mes-surface-1)' } },
    Modal: { styles: { content: { background: 'var(--mes-surface-2)' }, header: { background: 'var(--mes-surface-2)' } } },
    Popover: { styles: { dropdown: { background: 'var(--mes-surface-2)' } } },
    Menu: { styles: { dropdown: { background: 'var(--mes-surface-2)' } } },
  },
})

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-body': '#eef1f2',
    '--mantine-color-text': 'rgba(0, 0, 0, 0.87)',
    '--mantine-color-dimmed': 'rgba(0, 0, 0, 0.6)',
    '--mes-surface-1': '#fafbfb',
    '--mes-surface-2': '#ffffff',
    '--mes-header': '#ffffff',
  },
  dark: {
    '--mantine-color-body': '#0b1517',
    '--mantine-color-text': 'rgba(255, 255, 255, 0.87)',
    '--mantine-color-dimmed': 'rgba(255, 255, 255, 0.6)',
    '--mes-surface-1': '#1c2326',
    '--mes-surface-2': '#262e31',
    '--mes-header': '#141c1e',
  },
})
