import { MAX_FILES_PER_UPLOAD } from '../../../src/domains/products/files'
import type { Services } from '../../context'
import { checkedFileType, storedFileName } from './file-types'
import { invalidField } from '../../input-issues'

/**
 * The `POST files` upload steps every bucket shares: check the files (count, one name per file,
 * allowlisted type matching the bytes) before anything is written, then store them in a folder
 * under names not yet used there (`photo.jpg`, `photo-2.jpg` ...). The caller records the upload
 * in its own transaction and calls `discard` when that fails.
 */
export type CheckedFile = { name: string; bytes: Uint8Array }

const asList = <T>(x: T | T[] | undefined): T[] => (x === undefined ? [] : Array.isArray(x) ? x : [x])

export async function checkedUploads(contents: File | File[], filenames: string | string[] | undefined): Promise<CheckedFile[]> {
  const files = asList(contents)
  const names = asList(filenames)
  if (files.length === 0) throw invalidField({ path: 'contents', kind: 'min_items', limit: 1, message: 'at least one file' })
  if (files.length > MAX_FILES_PER_UPLOAD) throw invalidField({ path: 'contents', kind: 'max_items', limit: MAX_FILES_PER_UPLOAD, message: `at most ${MAX_FILES_PER_UPLOAD} files at once` })
  if (names.length > 0 && names.length !== files.length) throw invalidField({ path: 'filenames', kind: 'invalid', message: 'one name per file in contents' })
  const checked: CheckedFile[] = []
  for (const [i, file] of files.entries()) {
    const name = storedFileName(names[i] ?? file.name)
    const bytes = new Uint8Array(await file.arrayBuffer())
    checkedFileType(name, bytes)
    checked.push({ name, bytes })
  }
  return checked
}

/** A name not yet used in the folder: `name.ext`, `name-2.ext`, `name-3.ext` ... */
async function freeName(svc: Services, folder: string, name: string, taken: Set<string>): Promise<string> {
  const dot = name.lastIndexOf('.')
  const stem = dot > 0 ? name.slice(0, dot) : name
  const ext = dot > 0 ? name.slice(dot) : ''
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? name : `${stem.slice(0, 95)}-${n}${ext}`
    if (taken.has(candidate)) continue
    if (!(await svc.files.get(`${folder}/${candidate}`))) return candidate
  }
  throw invalidField({ path: 'filenames', kind: 'duplicate', message: 'too many files with this name' })
}

/** Writes the files into `folder`; returns their stored names and a way to remove them again. */
export async function storeInFolder(svc: Services, folder: string, files: CheckedFile[]): Promise<{ names: string[]; discard: () => Promise<void> }> {
  const taken = new Set<string>()
  const written: string[] = []
  const discard = async () => {
    for (const key of written) await svc.files.delete(key).catch(() => {})
  }
  try {
    for (const f of files) {
      const name = await freeName(svc, folder, f.name, taken)
      taken.add(name)
      await svc.files.put(`${folder}/${name}`, f.bytes)
      written.push(`${folder}/${name}`)
    }
  } catch (e) {
    await discard()
    throw e
  }
  return { names: [...taken], discard }
}
