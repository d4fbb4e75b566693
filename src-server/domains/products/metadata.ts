import type { FieldType } from '../../../src/domains/form-fields/schemas'
import { checkMetadataValue } from '../../../src/domains/products/metadata'
import type { MetadataItem } from '../../../src/domains/products/schemas'
import type { Db } from '../../db/connect'
import { badRequest } from '../../errors'
import type { FileStore } from '../../storage/file-store'
import { assertFieldsUsable } from '../form-fields/service'
import { invalidField } from '../../input-issues'

/** Where the files of a product's custom file field are stored (`POST files`, bucket 'product'). */
export const fieldFilesFolder = (productId: string, fieldId: string) => `products/${productId}/fields/${fieldId}`

/**
 * Product metadata as stored: each field once, fields that exist and are not archived (an
 * archived field stays where the product already had it), values typed by the field
 * (src/domains/products/metadata.ts), files that were uploaded for this product and field.
 * Refusals: 400 INVALID_INPUT (repeated field), UNKNOWN_FIELD, FIELD_ARCHIVED,
 * METADATA_VALUE_INVALID, UNKNOWN_FILE.
 */
export async function checkedMetadata(
  db: Db,
  files: FileStore,
  productId: string | null,
  items: readonly MetadataItem[],
  previous: readonly MetadataItem[] = [],
): Promise<MetadataItem[]> {
  const keys = items.map((i) => i.custom_field_key.toLowerCase())
  const repeated = keys.find((k, i) => keys.indexOf(k) !== i)
  if (repeated) throw invalidField({ path: 'metadata', kind: 'duplicate', message: `the field ${repeated} appears more than once` }, { custom_field_key: repeated })
  await assertFieldsUsable(db, keys, new Set(previous.map((p) => p.custom_field_key.toLowerCase())))
  if (keys.length === 0) return []
  const rows = await db
    .selectFrom('form_fields')
    .select(['id', 'name', 'type', 'options', 'multiple', 'mandatory'])
    .where('id', 'in', keys)
    .execute()
  const fields = new Map(rows.map((r) => [r.id, { ...r, type: r.type as FieldType }]))
  const out: MetadataItem[] = []
  for (const [index, item] of items.entries()) {
    const key = keys[index]!
    const field = fields.get(key)!
    const checked = checkMetadataValue(field, item.value)
    if (!checked.ok) {
      throw badRequest('METADATA_VALUE_INVALID', `metadata "${field.name}": ${checked.problem}`, { custom_field_key: key, index, field: field.name })
    }
    if (field.type === 'files') {
      for (const name of checked.value as string[]) {
        const stored = productId ? await files.get(`${fieldFilesFolder(productId, key)}/${name}`) : null
        if (!stored) {
          throw badRequest('UNKNOWN_FILE', `metadata "${field.name}": no uploaded file named ${name} (upload it with POST files first)`, {
            custom_field_key: key,
            index,
            filename: name,
          })
        }
      }
    }
    out.push({ custom_field_key: key, value: checked.value })
  }
  return out
}
