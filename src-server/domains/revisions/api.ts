import * as v from 'valibot'
import { RevisionDiff } from '../../../src/domains/revisions/diff'
import { ReleaseInput, Revision, RevisionList, RevisionSummary } from '../../../src/domains/revisions/schemas'
import { Key, QueryInt } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import { PROCESS_READERS } from '../process/access'
import * as revisions from './service'

const NUMBER_MAX = 1_000_000
/** One side of a comparison in the query string: a revision number or `draft`. */
/** A revision number: a number over tRPC, text in a REST path or query string. */
const RevisionNumber = v.union([v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(NUMBER_MAX)), QueryInt(1, NUMBER_MAX)], 'a revision number')
const DiffSideText = v.union([v.literal('draft'), RevisionNumber], 'a revision number or "draft"')

export const revisionsApi = useCases('revisions', {
  list: query({
    summary: 'The released revisions of a product, newest first (number, reason, origin, who released it and when), and draft_changed: the draft differs from the latest revision',
    access: { scope: PROCESS_READERS },
    input: v.object({ key: Key }),
    response: RevisionList,
    rest: { method: 'get', path: '/product/{key}/revision' },
    run: (ctx, input) => revisions.listRevisions(ctx, input.key),
  }),
  get: query({
    summary: 'One released revision: the whole process (phases with steps, parameters, notes, print templates, traceability, counter, bom lines) and the form fields its steps use, as released. Errors: 404 UNKNOWN_REVISION',
    access: { scope: PROCESS_READERS },
    input: v.object({ key: Key, number: RevisionNumber }),
    response: Revision,
    rest: { method: 'get', path: '/product/{key}/revision/{number}' },
    run: (ctx, input) => revisions.getRevision(ctx, input.key, input.number),
  }),
  diff: query({
    summary:
      'What changed from one side to the other (from, to: a revision number or "draft"; by default the latest revision and the draft): phases added, removed, moved or changed (attributes, steps, bom lines) and form field definitions. Errors: 404 UNKNOWN_REVISION',
    access: { scope: PROCESS_READERS },
    input: v.object({ key: Key, from: DiffSideText, to: DiffSideText }),
    response: RevisionDiff,
    rest: { method: 'get', path: '/product/{key}/revision-diff' },
    run: (ctx, input) => revisions.diff(ctx, input.key, input.from, input.to),
  }),
  release: mutation({
    summary:
      'Release the draft as the next revision (1, 2, 3 ...) with a reason; it never changes afterwards and new work orders are made from it. ' +
      'signature: {password} when the settings require releases to be signed (signature_revision_release). ' +
      'Errors: 409 NOTHING_TO_RELEASE (the draft equals the latest revision), PRODUCT_IN_TRASH; 422 PROCESS_EMPTY, SIGNATURE_REQUIRED; 400 SIGNATURE_INVALID; 429 LOGIN_THROTTLED',
    access: { scope: 'library' },
    input: v.object({ key: Key, ...ReleaseInput.entries }),
    response: RevisionSummary,
    rest: { method: 'post', path: '/product/{key}/revision', status: 201 },
    run: (ctx, { key, ...input }) => revisions.release(ctx, ctx.actor, key, input, ctx.client.ip),
  }),
  discardDraft: mutation({
    summary: 'Discard the changes of the draft: it becomes a copy of the latest revision again. Errors: 409 NO_REVISION, PRODUCT_IN_TRASH',
    access: { scope: 'library' },
    input: v.object({ key: Key }),
    response: RevisionList,
    rest: { method: 'delete', path: '/product/{key}/draft' },
    run: (ctx, input) => revisions.discardDraft(ctx, ctx.actor, input.key),
  }),
})
