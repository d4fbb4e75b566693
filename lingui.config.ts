import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

// Italian is the source locale: messages are written in Italian in the code; English is complete.
export default defineConfig({
  sourceLocale: 'it',
  locales: ['it', 'en'],
  fallbackLocales: { default: 'it' },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    {
      // LINGUI_CATALOG_DIR lets the catalog check extract into a scratch copy.
      path: `${process.env.LINGUI_CATALOG_DIR ?? '<rootDir>/src-client/locales'}/{locale}/messages`,
      include: ['<rootDir>/src-client', '<rootDir>/src'],
      exclude: ['**/*.test.*', '**/routeTree.gen.ts'],
    },
  ],
})
