import type { IssueAttachment } from '../../../src/domains/issues/schemas'
import { rest } from '../../lib/rest'
import { queryClient, trpc } from '../../lib/trpc'

/**
 * An issue changed: its lists, counts and detail are read again, and so are the jobs, work
 * orders and work sessions, whose critical markers follow the critical issues on them.
 */
export function invalidateIssues() {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: trpc.issues.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.workOrders.pathKey() }),
    queryClient.invalidateQueries({ queryKey: trpc.execution.workSession.pathKey() }),
  ])
}

/** `POST issue/{key}/attachment`: one file per request (the server checks its type from the bytes). */
export async function uploadIssueAttachment(issueKey: string, file: File): Promise<IssueAttachment> {
  const form = new FormData()
  form.append('file', file)
  return rest<IssueAttachment>('POST', `/issue/${issueKey}/attachment`, form)
}
