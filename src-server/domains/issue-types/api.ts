import * as v from 'valibot'
import type { Scope } from '../../../src/auth/scopes'
import { IssueTypeCreateInput, IssueTypeListInput, IssueTypePatchInput, IssueTypeRow } from '../../../src/domains/issue-types/schemas'
import { libraryCrud } from '../../api/library-crud'
import { useCases } from '../../api/use-case'
import * as issueTypes from './service'

/** Issue types are read by admins and by those who open issues: quality, operators, production. */
export const ISSUE_TYPE_READERS = ['admin', 'quality', 'operator', 'production'] as const satisfies readonly Scope[]
const crud = libraryCrud({ path: '/issue-type', read: { scope: ISSUE_TYPE_READERS }, write: { scope: 'admin' } })

export const issueTypesApi = useCases('issue types', {
  list: crud.list({
    summary: 'Issue types by code (only active ones with active_only=true)',
    input: IssueTypeListInput,
    response: v.array(IssueTypeRow),
    run: issueTypes.listIssueTypes,
  }),
  get: crud.get({ summary: 'One issue type', response: IssueTypeRow, run: issueTypes.getIssueType }),
  create: crud.create({
    summary: 'Create an issue type (code and name required, code unique); close_within in hours, 0 = never critical; detail._key is its key',
    input: IssueTypeCreateInput,
    response: IssueTypeRow,
    run: issueTypes.createIssueType,
  }),
  patch: crud.patch({ summary: 'Change an issue type', patch: IssueTypePatchInput, response: IssueTypeRow, run: issueTypes.patchIssueType }),
  delete: crud.delete({
    summary: 'Delete an issue type; one in use cannot be deleted (409 ISSUE_TYPE_IN_USE, detail.issues lists the issues)',
    run: issueTypes.deleteIssueType,
  }),
})
