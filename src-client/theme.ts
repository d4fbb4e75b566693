import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type CSSVariablesResolver, createTheme } from '@mantine/core'

/**
 * SPEC 9: text at 87% (high emphasis) and 60% (low emphasis) of white (dark) or black (light);
 * background dark teal-black or light grey; surface 1 dark grey or near-white; surface 2 a
 * lighter dark grey or white. Components read the surfaces through --mes-surface-1/2.
 */
export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  // A tablet (or a person) that asks for less motion gets none: modals, menus and toasts appear at once.
  respectReducedMotion: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    Modal: { styles: { content: { background: 'var(--mes-surface-2)' }, header: { background: 'var(--mes-surface-2)' } } },
    Popover: { styles: { dropdown: { background: 'var(--mes-surface-2)' } } },
    Menu: { styles: { dropdown: { background: 'var(--mes-surface-2)' } } },
    // The kit's own English label, in the user's language (read at each render: follows a switch).
    PasswordInput: { defaultProps: () => ({ visibilityToggleButtonProps: { 'aria-label': i18n._(msg`Mostra o nascondi la password`) } }) },
  },
})

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    // Mantine paints papers, cards and inputs with --mantine-color-body: that is surface 1;
    // the page itself sits on --mes-background (global.css).
    '--mes-background': '#eef1f2',
    '--mantine-color-body': '#fafbfb',
    '--mantine-color-text': 'rgba(0, 0, 0, 0.87)',
    '--mantine-color-dimmed': 'rgba(0, 0, 0, 0.6)',
    '--mes-surface-1': '#fafbfb',
    '--mes-surface-2': '#ffffff',
    '--mes-header': '#ffffff',
  },
  dark: {
    '--mes-background': '#0b1517',
    '--mantine-color-body': '#1c2326',
    '--mantine-color-text': 'rgba(255, 255, 255, 0.87)',
    '--mantine-color-dimmed': 'rgba(255, 255, 255, 0.6)',
    '--mes-surface-1': '#1c2326',
    '--mes-surface-2': '#262e31',
    '--mes-header': '#141c1e',
  },
})
