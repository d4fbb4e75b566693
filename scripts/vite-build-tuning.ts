import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/** Text assets worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest|wasm)$/
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024

/**
 * Writes `name.br` (brotli, best) and `name.gz` (gzip, best) next to every compressible file of
 * the build, once, at build time; the server (src-server/static-client.ts) sends the one the
 * browser accepts. Costs a few seconds of build time instead of CPU on every request.
 */
export function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'mes-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue
        const raw = readFileSync(file)
        if (raw.length < MIN_BYTES) continue
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(raw, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
          }),
        )
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }))
      }
    },
  }
}

function* walk(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) yield* walk(full)
    else yield full
  }
}

/** Mantine's ScrollArea takes one small hook from @floating-ui/react (useMergeRefs). */
const SCROLL_AREA = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/
const MERGE_REFS = path.resolve(import.meta.dirname, '../src-client/lib/merge-refs.ts')

/**
 * Gives Mantine's ScrollArea a copy of the one hook it takes from @floating-ui/react
 * (src-client/lib/merge-refs.ts): otherwise the screens with a scroll area (the app shell) load
 * the whole @floating-ui/react with them, and the menus, popovers and tooltips could not wait for
 * their first use (the `floating` chunk below, src-client/components/floating/lazy.tsx).
 */
export function floatingFreeScrollArea(): Plugin {
  return {
    name: 'mes-floating-free-scroll-area',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === '@floating-ui/react' && importer && SCROLL_AREA.test(importer)) return MERGE_REFS
      return null
    },
  }
}

const NODE_MODULES = /[\\/]node_modules[\\/]/
/** Libraries only a few screens use: never grouped, so they stay with the screens that import them (report charts: @mantine/charts, recharts and its own libraries; exceljs: the report Excel export, loaded on the click; pdf.js: the print template field editor; the camera's barcode decoder, loaded on the first scan). */
const HEAVY =
  /[\\/]node_modules[\\/](?:barcode-detector|zxing-wasm|@tanstack[\\/](?:react-)?table|pdfjs-dist|exceljs|@dnd-kit|@mantine[\\/](?:dates|charts)|dayjs|@xyflow|@dagrejs|classcat|zustand|recharts|@reduxjs|react-redux|redux|reselect|immer|victory-vendor|decimal\.js-light|es-toolkit|eventemitter3|internmap|d3-(?:drag|zoom|selection|interpolate|color|dispatch|ease|timer|transition|scale|shape|path|array|format|time|time-format)[\\/])/
/** The app's own modules that lazy screens share: components, client helpers, the offline queue, the shared src/ (schemas, rules). */
const SHARED = /[\\/](?:src-client[\\/](?:components|lib|offline)|src)[\\/]/
/** Shared components that import a heavy library: left with the screens that use them (the operator never loads the table; the camera dialog loads on first use). */
const HEAVY_PARTS = /[\\/]src-client[\\/]components[\\/]scan[\\/](?:CameraScanDialog\.tsx|barcode-reader\.ts)$|[\\/]src-client[\\/]components[\\/](?:DataTable|DateField|serials[\\/]GenealogyGraph)\.tsx$|[\\/]src-client[\\/]components[\\/]serials[\\/]genealogy-graph\.ts$/
/**
 * Mantine components only office screens use (pagination, radio groups, cards) and the combobox
 * inputs (select, multi-select, tags input and their pills), which the operator's screens load on
 * first use (src-client/components/choice-inputs.tsx): in `ui-office`, not in the `ui` the operator loads. Found by listing the names the operator's screens and the
 * app layout import from @mantine/core against all the app's imports (module importers cannot
 * tell: every component is imported by Mantine's index). Should the operator use one of them,
 * it simply loads this chunk too (bench/client.ts with BENCH_CLIENT_LIST=1 shows it).
 */
const OFFICE_UI = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Pagination|Radio|Card|Combobox|ComboboxPopover|Select|MultiSelect|TagsInput|Autocomplete|Pill|PillsInput)[\\/]/
/**
 * Mantine's menus, popovers and tooltips with @floating-ui (about 20 KB on the wire): in their own
 * chunk, `floating`, with the module that re-exports them (src-client/components/floating/parts.ts),
 * which the operator's screens import only on first use (src-client/components/floating/lazy.tsx).
 * The combobox inputs (`ui-office`) import it too.
 */
const FLOATING = /[\\/]node_modules[\\/](?:@floating-ui[\\/]|@mantine[\\/]core[\\/]esm[\\/]components[\\/](?:Popover|Tooltip|Menu|Floating|HoverCard)[\\/])|[\\/]src-client[\\/]components[\\/]floating[\\/]parts\.ts$/
/**
 * Mantine's notifications container with react-transition-group (about 5 KB on the wire): in
 * `notifications`, loaded at the first toast (src-client/components/LazyNotifications.tsx); the
 * store that `notifications.show` writes to stays with the first load.
 */
const NOTIFICATIONS = /[\\/]node_modules[\\/](?:react-transition-group[\\/]|@mantine[\\/]notifications[\\/]esm[\\/](?!notifications\.store)|@mantine[\\/]core[\\/]esm[\\/]components[\\/]Notification[\\/])|[\\/]src-client[\\/]components[\\/]notifications-container\.ts$/
const AREA = /[\\/]src-client[\\/]routes[\\/]app[\\/]([\w-]+)[\\/]/
/** The shop-floor screens: their tablets are the slow devices, what they load is kept to what they use. */
const OPERATOR = 'operator'

type ChunkingContext = { getModuleInfo: (id: string) => { importers: readonly string[] } | null }

/**
 * The areas whose lazy screens import `id`, directly or through other modules (static imports:
 * what loads with the screen). Memoised per build; a module on an import cycle counts the areas
 * found before the cycle closed.
 */
function areasReaching(id: string, ctx: ChunkingContext, memo: Map<string, Set<string>>): Set<string> {
  const known = memo.get(id)
  if (known) return known
  const areas = new Set<string>()
  memo.set(id, areas)
  for (const by of ctx.getModuleInfo(id)?.importers ?? []) {
    const area = AREA.exec(by)?.[1]
    if (area) areas.add(area)
    else for (const a of areasReaching(by, ctx, memo)) areas.add(a)
  }
  return areas
}

/**
 * A lazy screen's chunk is its area's; so is a shared module (component, helper) that only one
 * area's screens import, which would otherwise be a small chunk of its own (one request each).
 */
function areaChunkName(): (id: string, ctx: ChunkingContext) => string | null {
  const memo = new Map<string, Set<string>>()
  return (id, ctx) => {
    const own = AREA.exec(id)?.[1]
    if (own) return `area-${own}`
    const areas = areasReaching(id, ctx, memo)
    return areas.size === 1 ? `area-${[...areas][0]}` : null
  }
}

/**
 * The modules several areas share, split in two: `shared` for what the operator's screens use
 * (issues, messages, the work session's parts, client helpers) and `office` for the rest (job
 * and issue tables, process and product editors), so the operator does not download the office
 * screens' components nor the table library they import.
 */
function sharedChunkName(): (id: string, ctx: ChunkingContext) => string {
  const memo = new Map<string, Set<string>>()
  return (id, ctx) => (areasReaching(id, ctx, memo).has(OPERATOR) ? 'shared' : 'office')
}

/**
 * Rolldown chunk groups (build.rolldownOptions.output.codeSplitting), highest priority first:
 * - everything the first page needs (all that main.tsx imports statically: libraries and the
 *   route tree's non-lazy parts) in two chunks, `vendor` and `app`, instead of dozens of small ones;
 * - the remaining library code (Mantine components the first page does not use) in `ui`
 *   (`ui-office` for the components only office screens use), except
 *   the heavy libraries few screens use (tables, drag-sort, date pickers): Rolldown's own
 *   splitting keeps those with the screens that import them;
 * - the lazy screens (TanStack autoCodeSplitting) of one area in one chunk per area, with the
 *   app modules only that area uses but without the components other areas share
 *   (`includeDependenciesRecursively: false`), which would otherwise land in whichever area
 *   claims them first and drag that area along;
 * - the app's modules used by several lazy screens in `shared` (those the operator's screens
 *   use) and `office` (the others), but the table and date picker wrappers, which would drag
 *   their heavy libraries into every area; the rest stay with their screen.
 * Measured with `bun run bench client` (bench/RESULTS.md), which is how to judge a change here.
 * Rolldown still emits a tiny re-export chunk per lazy route (rolldown issue 9729).
 */
export const clientChunks = {
  groups: [
    { name: 'vendor', test: NODE_MODULES, tags: ['$initial' as const], priority: 50 },
    { name: 'app', tags: ['$initial' as const], priority: 40 },
    { name: 'floating', test: FLOATING, includeDependenciesRecursively: false, priority: 30 },
    { name: 'notifications', test: NOTIFICATIONS, includeDependenciesRecursively: false, priority: 30 },
    { name: (id: string) => (OFFICE_UI.test(id) ? 'ui-office' : 'ui'), debugName: 'ui', test: (id: string) => NODE_MODULES.test(id) && !HEAVY.test(id), priority: 20 },
    {
      name: areaChunkName(),
      debugName: 'area',
      test: (id: string) => AREA.test(id) || (SHARED.test(id) && !HEAVY_PARTS.test(id)),
      includeDependenciesRecursively: false,
      priority: 10,
    },
    {
      name: sharedChunkName(),
      debugName: 'shared',
      test: (id: string) => SHARED.test(id) && !HEAVY_PARTS.test(id),
      minShareCount: 2,
      includeDependenciesRecursively: false,
      priority: 5,
    },
  ],
}
