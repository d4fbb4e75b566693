declare module '*.po' {
  export const messages: Record<string, unknown>
}

declare module '*.css'

/** A part of a compiled catalog (scripts/vite-catalog-parts.ts). */
declare module '*?lingui' {
  export const messages: Record<string, unknown>
}
