import type { inferRouterOutputs } from '@trpc/server'
import type { FilesResult } from '../../src/domains/products/schemas'
import type { AppRouter } from '../../src-server/trpc/app-router'
import { rest } from './rest'
import { queryClient, trpc } from './trpc'

/** A product as the client receives it (JSON: metadata values may be absent). */
export type Product = inferRouterOutputs<AppRouter>['products']['get']
export type ProductMetadataItem = Product['metadata'][number]

/** Multipart uploads go through the documented REST paths (tRPC carries JSON only). */

export function uploadProductImage(productKey: string, file: File): Promise<Product> {
  const form = new FormData()
  form.append('new_image', file)
  return rest<Product>('PUT', `/product/${productKey}/image`, form)
}

/** `POST product/{key}/doc`: a document with the same name answers 409 DOC_EXISTS unless `replace`. */
export function uploadProductDoc(productKey: string, file: File, replace = false): Promise<Product> {
  const form = new FormData()
  form.append('new_doc', file)
  return rest<Product>('POST', `/product/${productKey}/doc${replace ? '?replace=true' : ''}`, form)
}

/** `POST files` for a custom file field of a product: the stored names go in the field's value. */
export function uploadFieldFiles(productKey: string, fieldKey: string, files: File[]): Promise<FilesResult> {
  const form = new FormData()
  form.append('bucket', 'product')
  form.append('object_key', productKey)
  form.append('subfolder', fieldKey)
  for (const f of files) form.append('contents', f)
  return rest<FilesResult>('POST', '/files', form)
}

export function deleteFieldFiles(productKey: string, fieldKey: string, filenames: string[]): Promise<FilesResult> {
  return rest<FilesResult>('DELETE', '/files', { bucket: 'product', object_key: productKey, subfolder: fieldKey, filenames })
}

/** A product changed: its detail is the answer, lists refetch. */
export async function productChanged(row: Product) {
  queryClient.setQueryData(trpc.products.get.queryKey({ key: row._key }), row)
  await queryClient.invalidateQueries({ queryKey: trpc.products.list.pathKey() })
}
