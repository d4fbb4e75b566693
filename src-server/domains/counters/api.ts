import * as v from 'valibot'
import { CounterCopyInput, CounterCreateInput, CounterListInput, CounterPatchInput, CounterRow } from '../../../src/domains/counters/schemas'
import { libraryCrud } from '../../api/library-crud'
import { mutation, useCases } from '../../api/use-case'
import * as counters from './service'

const admin = { scope: 'admin' } as const
const crud = libraryCrud({ path: '/counter', read: admin, write: admin })
const TEMPLATE_ERRORS =
  '400 COUNTER_TEMPLATE_BRACES, COUNTER_TEMPLATE_UNKNOWN_PART, COUNTER_TEMPLATE_SEQUENCE (exactly one {#...} of 1-12 digits), COUNTER_TEMPLATE_PERIOD_MISSING (a counter that resets shows its period); 409 COUNTER_SEQUENCE_FULL (next_value wider than the sequence)'

export const countersApi = useCases('counters', {
  list: crud.list({
    summary: 'The counters by name, each with the next value, reset date, next tick (next reset) and the next code as it would be made now',
    input: CounterListInput,
    // Scripts read every counter; search, sort and paging are the screens'.
    rest: { omit: Object.keys(CounterListInput.entries), answer: { response: v.array(CounterRow), from: (page) => page.rows } },
    run: counters.listCounters,
  }),
  get: crud.get({ summary: 'One counter with its next value and next code', response: CounterRow, run: counters.getCounter }),
  create: crud.create({
    summary: `Create a counter: name (unique whatever the case: 409 COUNTER_NAME_TAKEN), template with literal text, {YYYY} {YY} {MM} {DD} {WW} (ISO week; with it the year is the ISO week year) and one zero-padded sequence {#####}, frequency never|year|month|week|day (plant calendar), next_value. Errors: ${TEMPLATE_ERRORS}`,
    input: CounterCreateInput,
    response: CounterRow,
    run: counters.createCounter,
  }),
  patch: crud.patch({
    summary: `Change name, template, frequency and/or next_value (applies from the current period). Errors: ${TEMPLATE_ERRORS}`,
    patch: CounterPatchInput,
    response: CounterRow,
    run: counters.patchCounter,
  }),
  copy: mutation({
    summary: 'Mass copy: a copy of each chosen counter named "<name> (2)" ..., numbering from 1; all or none (404 NOT_FOUND for an unknown key)',
    access: admin,
    input: CounterCopyInput,
    response: v.array(CounterRow),
    rest: { method: 'post', path: '/counter/copy', status: 201 },
    run: (ctx, input) => counters.copyCounters(ctx, ctx.actor, input),
  }),
  delete: crud.delete({
    summary: 'Delete a counter; one that made serials or that a phase uses cannot be deleted (409 COUNTER_IN_USE)',
    run: counters.deleteCounter,
  }),
})
