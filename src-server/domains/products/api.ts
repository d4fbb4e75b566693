import * as v from 'valibot'
import { FILE_BUCKETS, MAX_DOC_BYTES, MAX_FILES_PER_UPLOAD, MAX_FILES_UPLOAD_BYTES } from '../../../src/domains/products/files'
import {
  FilesDeleteInput,
  FilesResult,
  ProductInput,
  ProductList,
  ProductListInput,
  ProductRow,
  ProductStatePatch,
  TagKeysText,
} from '../../../src/domains/products/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import { uploadBatchFieldFiles } from '../execution/batch-files'
import { PRODUCT_READERS, PRODUCT_WRITERS } from './access'
import { addProductDoc, deleteProductDoc } from './docs'
import { deleteFieldFiles, uploadFieldFiles } from './field-files'
import * as products from './service'

const read = { scope: PRODUCT_READERS }
const write = { scope: PRODUCT_WRITERS }
const ByKey = v.object({ key: Key })
const MULTIPART_SLACK = 64 * 1024
const FileField = (name: string) => v.file(`${name} must be a file`)

export const productsApi = useCases('products', {
  list: query({
    summary:
      'The product list, one page: search (code or description, contains), state (active | inactive | trash; default: everything not in the trash), tag (tag keys separated by commas: products with every one), sort (code | description | updated_at | created_at), dir, page, page_size (at most 100, default 25). detail = {rows, total}',
    access: read,
    input: v.object({ ...ProductListInput.entries, tag: v.optional(TagKeysText) }),
    response: ProductList,
    rest: { method: 'get', path: '/product', omit: ['tags'] },
    run: (ctx, { tag, tags, ...opts }) => products.listProducts(ctx, { ...opts, tags: tags ?? tag }),
  }),
  get: query({
    summary: 'One product with its tags, documents (url to open each), metadata and image url',
    access: read,
    input: ByKey,
    response: ProductRow,
    rest: { method: 'get', path: '/product/{key}' },
    run: (ctx, input) => products.getProduct(ctx, input.key),
  }),
  create: mutation({
    summary:
      'Create a product: code required (400 PRODUCT_CODE_REQUIRED) and unique whatever the case (409 PRODUCT_CODE_TAKEN); description, notes, minimum_order, technical_batch and metadata optional. detail._key is its key',
    access: write,
    input: ProductInput,
    response: ProductRow,
    rest: { method: 'post', path: '/product', status: 201 },
    run: (ctx, input) => products.createProduct(ctx, ctx.actor, input),
  }),
  update: mutation({
    summary:
      'Update the home fields: code, description, notes, minimum_order, technical_batch, metadata ([{custom_field_key, value}] typed by the form field library: 400 METADATA_VALUE_INVALID, UNKNOWN_FIELD, FIELD_ARCHIVED, UNKNOWN_FILE). Fields left out keep their value; a product in the trash is refused (409 PRODUCT_IN_TRASH)',
    access: write,
    input: v.object({ key: Key, product: ProductInput }),
    response: ProductRow,
    rest: { method: 'put', path: '/product/{key}', body: 'product' },
    run: (ctx, input) => products.updateProduct(ctx, ctx.actor, input.key, input.product),
  }),
  setState: mutation({
    summary: 'Deactivate / reactivate (active) and move to the trash / restore (trash)',
    access: write,
    input: v.object({ key: Key, patch: ProductStatePatch }),
    response: ProductRow,
    rest: { method: 'patch', path: '/product/{key}', body: 'patch' },
    run: (ctx, input) => products.setProductState(ctx, ctx.actor, input.key, input.patch),
  }),
  setImage: restOnly({
    summary: 'Replace the product image (multipart field new_image: PNG, JPEG, WebP or GIF up to 10 MiB, checked by decoding it)',
    access: write,
    input: v.object({ key: Key, new_image: FileField('new_image') }),
    response: ProductRow,
    rest: { method: 'put', path: '/product/{key}/image', multipart: { maxBytes: MAX_IMAGE_BYTES + MULTIPART_SLACK } },
    run: (ctx, input) => products.setProductImage(ctx, ctx.actor, input.key, input.new_image),
  }),
  removeImage: mutation({
    summary: 'Remove the product image',
    access: write,
    input: ByKey,
    response: ProductRow,
    rest: { method: 'delete', path: '/product/{key}/image' },
    run: (ctx, input) => products.removeProductImage(ctx, ctx.actor, input.key),
  }),
  addDoc: restOnly({
    summary:
      'Add a document (multipart field new_doc, up to 25 MiB: PDF, images, Office/OpenDocument files, TXT/CSV, checked against their bytes). A document with the same name answers 409 DOC_EXISTS unless replace=true. Served at detail.docs[].url',
    access: write,
    // `replace` travels in the query string, the file in the multipart body.
    input: v.object({ key: Key, replace: v.optional(v.boolean()), form: v.object({ new_doc: FileField('new_doc') }) }),
    response: ProductRow,
    rest: { method: 'post', path: '/product/{key}/doc', body: 'form', multipart: { maxBytes: MAX_DOC_BYTES + MULTIPART_SLACK } },
    run: (ctx, input) => addProductDoc(ctx, ctx.actor, input.key, input.form.new_doc, input.replace),
  }),
  removeDoc: mutation({
    summary: 'Delete a document by name (URL-encoded); its file is removed',
    access: write,
    input: v.object({ key: Key, name: v.pipe(v.string(), v.minLength(1), v.maxLength(300)) }),
    response: ProductRow,
    rest: { method: 'delete', path: '/product/{key}/doc/{name}' },
    run: (ctx, input) => deleteProductDoc(ctx, ctx.actor, input.key, input.name),
  }),
  uploadFiles: restOnly({
    summary:
      "Upload files of a files form field. Multipart: bucket = 'product' (object_key = product key; library: a custom file field, then list the names in the metadata with PUT product/{key}) or 'batch' (object_key = batch key; the operator running the batch while it is open: a files field of one of its form steps, then list the names in the step's form data), subfolder = key of a form field of type files, contents = the files (repeat the field for several, at most 20), filenames = optional names in the same order. Types and size as for documents. detail.filenames are the stored names (unique in the folder)",
    access: { scope: [...PRODUCT_WRITERS, 'operator'] },
    input: v.object({
      bucket: v.picklist(FILE_BUCKETS, "bucket must be 'product' or 'batch'"),
      object_key: v.pipe(v.string(), v.uuid('object_key must be a product or batch key')),
      subfolder: v.pipe(v.string(), v.uuid('subfolder must be a form field key')),
      filenames: v.optional(v.union([v.pipe(v.string(), v.maxLength(300)), v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(MAX_FILES_PER_UPLOAD))])),
      contents: v.union([FileField('contents'), v.pipe(v.array(FileField('contents')), v.maxLength(MAX_FILES_PER_UPLOAD))]),
    }),
    response: FilesResult,
    rest: { method: 'post', path: '/files', multipart: { maxBytes: MAX_FILES_UPLOAD_BYTES + MULTIPART_SLACK }, status: 201 },
    run: (ctx, input) =>
      input.bucket === 'batch' ? uploadBatchFieldFiles(ctx, ctx.actor, input) : uploadFieldFiles(ctx, ctx.actor, { ...input, bucket: 'product' }),
  }),
  deleteFiles: restOnly({
    summary:
      "Delete stored files of a custom file field (JSON: bucket 'product', object_key, subfolder, filenames). Names still in the product's saved metadata are refused (409 FILE_IN_USE); names not there are ignored. detail.filenames are the removed ones",
    access: write,
    // A DELETE reads its entries from the query string unless one entry is the body.
    input: v.object({ files: FilesDeleteInput }),
    response: FilesResult,
    rest: { method: 'delete', path: '/files', body: 'files' },
    run: (ctx, input) => deleteFieldFiles(ctx, ctx.actor, input.files),
  }),
})
