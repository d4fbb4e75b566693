import type { IssueContextType, IssueRow } from '../../../src/domains/issues/schemas'
import { hasScope } from '../../../src/auth/scopes'
import { useSession } from '../../lib/use-auth'

/**
 * What the signed-in user may do with issues, so screens offer only that (the server checks
 * again): quality opens issues anywhere and runs every action; production opens them on jobs,
 * work orders and products; operators on a job. Title, description and type are edited by
 * quality or by whoever opened the issue, while it is not closed.
 */
export function useIssueAccess() {
  const session = useSession()
  const scope = session?.scope ?? ''
  const quality = hasScope(scope, 'quality')
  const production = hasScope(scope, 'production')
  const operator = hasScope(scope, 'operator')
  return {
    canCreate: (context: IssueContextType) =>
      quality || (production && context !== 'generic') || (operator && context === 'job'),
    canEdit: (issue: Pick<IssueRow, 'state' | 'opened_by_key'>) =>
      issue.state !== 'closed' && (quality || (session !== null && issue.opened_by_key === session.user_key)),
    canAct: quality,
    /** Context links lead only where the user may go. */
    canOpenWorkOrder: production,
    canOpenProduct: hasScope(scope, 'library'),
  }
}
