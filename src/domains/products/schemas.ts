import * as v from 'valibot'
import { DELETABLE_FILE_BUCKETS, FILE_BUCKETS, MAX_FILES_PER_UPLOAD } from './files'

/**
 * The product library contract (SPEC 3 Product, 7 Products and processes), shared by the
 * REST paths, tRPC, OpenAPI and the library screens.
 */
export const PRODUCT_CODE_MAX = 60
export const PRODUCT_DESCRIPTION_MAX = 500
export const PRODUCT_NOTES_MAX = 20_000
/** Minimum order and technical batch: whole pieces, 0 up to this. */
export const PRODUCT_QUANTITY_MAX = 1_000_000_000
export const PRODUCT_STATES = ['active', 'inactive', 'trash'] as const
export type ProductState = (typeof PRODUCT_STATES)[number]

export const MetadataItem = v.object({
  custom_field_key: v.pipe(v.string(), v.uuid('custom_field_key must be a form field key')),
  value: v.unknown(),
})
export type MetadataItem = v.InferOutput<typeof MetadataItem>

const Quantity = v.nullable(v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must be >= 0'), v.maxValue(PRODUCT_QUANTITY_MAX)))

/** `POST product` / `PUT product/{key}`: the code rule (required, unique) has its own error codes in the service. */
export const ProductInput = v.object({
  code: v.pipe(v.string(), v.trim(), v.maxLength(PRODUCT_CODE_MAX)),
  description: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PRODUCT_DESCRIPTION_MAX))),
  notes: v.optional(v.pipe(v.string(), v.maxLength(PRODUCT_NOTES_MAX))),
  minimum_order: v.optional(Quantity),
  technical_batch: v.optional(Quantity),
  metadata: v.optional(v.pipe(v.array(MetadataItem), v.maxLength(200))),
})
export type ProductInput = v.InferOutput<typeof ProductInput>

/** `PATCH product/{key}` with `active` or `trash` (SPEC 7). */
export const ProductStatePatch = v.object({ active: v.optional(v.boolean()), trash: v.optional(v.boolean()) })

export const ProductDoc = v.object({
  name: v.string(),
  content_type: v.string(),
  size: v.number(),
  uploaded_at: v.number(),
  url: v.string(),
})

export const Tag = v.object({ _key: v.string(), name: v.string() })
export type Tag = v.InferOutput<typeof Tag>

export const ProductRow = v.object({
  _key: v.string(),
  code: v.string(),
  description: v.string(),
  active: v.boolean(),
  trash: v.boolean(),
  notes: v.string(),
  minimum_order: v.nullable(v.number()),
  technical_batch: v.nullable(v.number()),
  image_url: v.nullable(v.string()),
  metadata: v.array(MetadataItem),
  tags: v.array(Tag),
  docs: v.array(ProductDoc),
  print_templates: v.array(v.string()),
  phase_count: v.number(),
  created_at: v.number(),
  updated_at: v.number(),
})
export type ProductRow = v.InferOutput<typeof ProductRow>

export const PRODUCT_SORTS = ['code', 'description', 'updated_at', 'created_at'] as const

/** `GET product?tag=`: tag keys separated by commas (a query string holds one value per name); the screens send the `tags` list. */
export const TagKeysText = v.pipe(
  v.string(),
  v.maxLength(20 * 37),
  v.transform((s) => s.split(',').map((k) => k.trim()).filter(Boolean)),
  v.array(v.pipe(v.string(), v.uuid('tag must be tag keys separated by commas'))),
  v.maxLength(20),
)

/** The product list: server-side search, sort, paging and filters (state, tags). */
export const ProductListInput = v.object({
  search: v.optional(v.pipe(v.string(), v.maxLength(100))),
  state: v.optional(v.picklist(PRODUCT_STATES)),
  tags: v.optional(v.pipe(v.array(v.pipe(v.string(), v.uuid())), v.maxLength(20))),
  sort: v.optional(v.picklist(PRODUCT_SORTS)),
  dir: v.optional(v.picklist(['asc', 'desc'])),
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  page_size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100))),
})
export type ProductListInput = v.InferOutput<typeof ProductListInput>

export const ProductListItem = v.object({
  _key: v.string(),
  code: v.string(),
  description: v.string(),
  active: v.boolean(),
  trash: v.boolean(),
  image_url: v.nullable(v.string()),
  tags: v.array(Tag),
  updated_at: v.number(),
})
export const ProductList = v.object({ rows: v.array(ProductListItem), total: v.number() })

export const TagConnectionInput = v.object({
  type: v.picklist(['add', 'remove']),
  context: v.picklist(['product']),
  context_key: v.pipe(v.string(), v.uuid()),
  tag_key: v.optional(v.pipe(v.string(), v.uuid())),
  /** Adding by name creates the tag when it does not exist yet. */
  tag_name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(60))),
})

export const TAG_CONTEXTS = ['product'] as const
/** At most this many tags answer one `GET tag` (SPEC 5: the first 100 results). */
export const TAG_RESULTS_MAX = 100

/**
 * `GET tag`: with `context` and `context_key`, that item's tags; otherwise the tag library by
 * name, at most 100, filtered by `search` (a search shorter than the configured
 * autocomplete_min_chars_tags answers an empty list).
 */
export const TagListQuery = v.object({
  context: v.optional(v.picklist(TAG_CONTEXTS)),
  context_key: v.optional(v.pipe(v.string(), v.uuid('context_key must be a key'))),
  search: v.optional(v.pipe(v.string(), v.maxLength(60))),
})
export type TagListQuery = v.InferOutput<typeof TagListQuery>

/** `DELETE files` (JSON): stored files of a custom file field; names still in the saved metadata are refused (409 FILE_IN_USE). */
export const FilesDeleteInput = v.object({
  bucket: v.picklist(DELETABLE_FILE_BUCKETS, "bucket must be 'product'"),
  object_key: v.pipe(v.string(), v.uuid('object_key must be a product key')),
  subfolder: v.pipe(v.string(), v.uuid('subfolder must be a form field key')),
  filenames: v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(200))), v.minLength(1), v.maxLength(MAX_FILES_PER_UPLOAD)),
})
export type FilesDeleteInput = v.InferOutput<typeof FilesDeleteInput>

/** `POST files` / `DELETE files` answer: the stored names (what a files field's value lists) and where they are served. */
export const FilesResult = v.object({
  bucket: v.picklist(FILE_BUCKETS),
  object_key: v.string(),
  subfolder: v.string(),
  filenames: v.array(v.string()),
  urls: v.array(v.string()),
})
export type FilesResult = v.InferOutput<typeof FilesResult>
