import * as v from 'valibot'
import { FILE_BUCKETS, MAX_DOC_BYTES, MAX_FILES_PER_UPLOAD, MAX_FILES_UPLOAD_BYTES } from '../../../src/domains/products/files'
import {
  FilesDeleteInput,
  FilesResult,
  ProductDocQuery,
  ProductInput,
  ProductList,
  ProductListQuery,
  ProductRow,
  ProductStatePatch,
} from '../../../src/domains/products/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import { addProductDoc, deleteProductDoc } from './docs'
import { deleteFieldFiles, uploadFieldFiles } from './field-files'
import * as products from './service'
import { uploadBatchFieldFiles } from '../execution/batch-files'
import { PRODUCT_READERS, PRODUCT_WRITERS } from './access'

const tag = 'products'
const KeyParams = v.object({ key: Key })
const MULTIPART_SLACK = 64 * 1024

const FileField = (name: string) => v.file(`${name} must be a file`)

export const productRoutes = [
  route({
    method: 'get',
    path: '/product',
    tag,
    summary:
      'The product list, one page: search (code or description, contains), state (active | inactive | trash; default: everything not in the trash), tag (tag keys separated by commas: products with every one), sort (code | description | updated_at | created_at), dir, page, page_size (at most 100, default 25). detail = {rows, total}',
    access: { scope: PRODUCT_READERS },
    query: ProductListQuery,
    response: ProductList,
    handler: (ctx, { query }) => {
      const { tag: tags, ...rest } = query
      return products.listProducts(ctx, { ...rest, tags })
    },
  }),
  route({
    method: 'get',
    path: '/product/{key}',
    tag,
    summary: 'One product with its tags, documents (url to open each), metadata and image url',
    access: { scope: PRODUCT_READERS },
    params: KeyParams,
    response: ProductRow,
    handler: (ctx, { params }) => products.getProduct(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/product',
    tag,
    summary:
      'Create a product: code required (400 PRODUCT_CODE_REQUIRED) and unique whatever the case (409 PRODUCT_CODE_TAKEN); description, notes, minimum_order, technical_batch and metadata optional. detail._key is its key',
    access: { scope: PRODUCT_WRITERS },
    body: ProductInput,
    response: ProductRow,
    status: 201,
    handler: (ctx, { body }) => products.createProduct(ctx, ctx.actor!, body),
  }),
  route({
    method: 'put',
    path: '/product/{key}',
    tag,
    summary:
      'Update the home fields: code, description, notes, minimum_order, technical_batch, metadata ([{custom_field_key, value}] typed by the form field library: 400 METADATA_VALUE_INVALID, UNKNOWN_FIELD, FIELD_ARCHIVED, UNKNOWN_FILE). Fields left out keep their value; a product in the trash is refused (409 PRODUCT_IN_TRASH)',
    access: { scope: PRODUCT_WRITERS },
    params: KeyParams,
    body: ProductInput,
    response: ProductRow,
    handler: (ctx, { params, body }) => products.updateProduct(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'patch',
    path: '/product/{key}',
    tag,
    summary: 'Deactivate / reactivate (active) and move to the trash / restore (trash)',
    access: { scope: PRODUCT_WRITERS },
    params: KeyParams,
    body: ProductStatePatch,
    response: ProductRow,
    handler: (ctx, { params, body }) => products.setProductState(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'put',
    path: '/product/{key}/image',
    tag,
    summary: 'Replace the product image (multipart field new_image: PNG, JPEG, WebP or GIF up to 10 MiB, checked by decoding it)',
    access: { scope: PRODUCT_WRITERS },
    params: KeyParams,
    multipart: { maxBytes: MAX_IMAGE_BYTES + MULTIPART_SLACK },
    body: v.object({ new_image: FileField('new_image') }),
    response: ProductRow,
    handler: (ctx, { params, body }) => products.setProductImage(ctx, ctx.actor!, params.key, body.new_image),
  }),
  route({
    method: 'delete',
    path: '/product/{key}/image',
    tag,
    summary: 'Remove the product image',
    access: { scope: PRODUCT_WRITERS },
    params: KeyParams,
    response: ProductRow,
    handler: (ctx, { params }) => products.removeProductImage(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/product/{key}/doc',
    tag,
    summary:
      'Add a document (multipart field new_doc, up to 25 MiB: PDF, images, Office/OpenDocument files, TXT/CSV, checked against their bytes). A document with the same name answers 409 DOC_EXISTS unless replace=true. Served at detail.docs[].url',
    access: { scope: PRODUCT_WRITERS },
    params: KeyParams,
    query: ProductDocQuery,
    multipart: { maxBytes: MAX_DOC_BYTES + MULTIPART_SLACK },
    body: v.object({ new_doc: FileField('new_doc') }),
    response: ProductRow,
    handler: (ctx, { params, query, body }) => addProductDoc(ctx, ctx.actor!, params.key, body.new_doc, query.replace ?? false),
  }),
  route({
    method: 'delete',
    path: '/product/{key}/doc/{name}',
    tag,
    summary: 'Delete a document by name (URL-encoded); its file is removed',
    access: { scope: PRODUCT_WRITERS },
    params: v.object({ key: Key, name: v.pipe(v.string(), v.minLength(1), v.maxLength(300)) }),
    response: ProductRow,
    handler: (ctx, { params }) => deleteProductDoc(ctx, ctx.actor!, params.key, params.name),
  }),
  route({
    method: 'post',
    path: '/files',
    tag,
    summary:
      "Upload files of a files form field. Multipart: bucket = 'product' (object_key = product key; library: a custom file field, then list the names in the metadata with PUT product/{key}) or 'batch' (object_key = batch key; the operator running the batch while it is open: a files field of one of its form steps, then list the names in the step's form data), subfolder = key of a form field of type files, contents = the files (repeat the field for several, at most 20), filenames = optional names in the same order. Types and size as for documents. detail.filenames are the stored names (unique in the folder)",
    access: { scope: [...PRODUCT_WRITERS, 'operator'] },
    multipart: { maxBytes: MAX_FILES_UPLOAD_BYTES + MULTIPART_SLACK },
    body: v.object({
      bucket: v.picklist(FILE_BUCKETS, "bucket must be 'product' or 'batch'"),
      object_key: v.pipe(v.string(), v.uuid('object_key must be a product or batch key')),
      subfolder: v.pipe(v.string(), v.uuid('subfolder must be a form field key')),
      filenames: v.optional(v.union([v.pipe(v.string(), v.maxLength(300)), v.pipe(v.array(v.pipe(v.string(), v.maxLength(300))), v.maxLength(MAX_FILES_PER_UPLOAD))])),
      contents: v.union([FileField('contents'), v.pipe(v.array(FileField('contents')), v.maxLength(MAX_FILES_PER_UPLOAD))]),
    }),
    response: FilesResult,
    status: 201,
    handler: (ctx, { body }) =>
      body.bucket === 'batch' ? uploadBatchFieldFiles(ctx, ctx.actor!, body) : uploadFieldFiles(ctx, ctx.actor!, { ...body, bucket: 'product' }),
  }),
  route({
    method: 'delete',
    path: '/files',
    tag,
    summary:
      "Delete stored files of a custom file field (JSON: bucket 'product', object_key, subfolder, filenames). Names still in the product's saved metadata are refused (409 FILE_IN_USE); names not there are ignored. detail.filenames are the removed ones",
    access: { scope: PRODUCT_WRITERS },
    body: FilesDeleteInput,
    response: FilesResult,
    handler: (ctx, { body }) => deleteFieldFiles(ctx, ctx.actor!, body),
  }),
]
