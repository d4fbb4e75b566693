/** Vite `?url` imports (the pdf.js worker file). */
declare module '*?url' {
  const url: string
  export default url
}
