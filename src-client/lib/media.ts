import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { MediaRow } from '../../src/domains/process/media'
import { rest } from './rest'
import { trpc } from './trpc'

/** `POST media/create`: the server checks the type from the bytes and answers the stored media. */
export function uploadMedia(file: File): Promise<MediaRow> {
  const form = new FormData()
  form.append('file', file)
  return rest<MediaRow>('POST', '/media/create', form)
}

/** Names and types of the media some steps refer to, by key (plus rows just uploaded). */
export function useMediaRows(keys: readonly string[], uploaded: readonly MediaRow[] = []): Map<string, MediaRow> {
  const wanted = useMemo(() => [...new Set(keys)].filter((k) => !uploaded.some((u) => u._key === k)).sort(), [keys, uploaded])
  const { data } = useQuery({ ...trpc.media.byKeys.queryOptions({ keys: wanted }), enabled: wanted.length > 0, staleTime: Infinity })
  return useMemo(() => new Map([...(data ?? []), ...uploaded].map((m) => [m._key, m])), [data, uploaded])
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(0)} KB`
  return `${(size / 1024 / 1024).toFixed(1)} MB`
}
