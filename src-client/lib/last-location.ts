/** The last location the router settled on, so a refused navigation can stay where it was. */
let lastHref: string | null = null
export const setLastHref = (href: string) => {
  lastHref = href
}
export const getLastHref = () => lastHref
