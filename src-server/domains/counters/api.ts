import * as v from 'valibot'
import { CounterCopyInput, CounterCreateInput, CounterListInput, CounterPatchInput, CounterRow } from '../../../src/domains/counters/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, useCases } from '../../api/use-case'
import * as counters from './service'

const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })
const TEMPLATE_ERRORS =
  '400 COUNTER_TEMPLATE_BRACES, COUNTER_TEMPLATE_UNKNOWN_PART, COUNTER_TEMPLATE_SEQUENCE (exactly one {#...} of 1-12 digits), COUNTER_TEMPLATE_PERIOD_MISSING (a counter that resets shows its period); 409 COUNTER_SEQUENCE_FULL (next_value wider than the sequence)'

export const countersApi = useCases('counters', {
  list: query({
    summary: 'The counters by name, each with the next value, reset date, next tick (next reset) and the next code as it would be made now',
    access: admin,
    input: CounterListInput,
    // Scripts read every counter; search, sort and paging are the screens'.
    rest: { method: 'get', path: '/counter', omit: Object.keys(CounterListInput.entries), answer: { response: v.array(CounterRow), from: (page) => page.rows } },
    run: (ctx, input) => counters.listCounters(ctx, input),
  }),
  get: query({
    summary: 'One counter with its next value and next code',
    access: admin,
    input: ByKey,
    response: CounterRow,
    rest: { method: 'get', path: '/counter/{key}' },
    run: (ctx, input) => counters.getCounter(ctx, input.key),
  }),
  create: mutation({
    summary: `Create a counter: name (unique whatever the case: 409 COUNTER_NAME_TAKEN), template with literal text, {YYYY} {YY} {MM} {DD} {WW} (ISO week; with it the year is the ISO week year) and one zero-padded sequence {#####}, frequency never|year|month|week|day (plant calendar), next_value. Errors: ${TEMPLATE_ERRORS}`,
    access: admin,
    input: CounterCreateInput,
    response: CounterRow,
    rest: { method: 'post', path: '/counter', status: 201 },
    run: (ctx, input) => counters.createCounter(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary: `Change name, template, frequency and/or next_value (applies from the current period). Errors: ${TEMPLATE_ERRORS}`,
    access: admin,
    input: v.object({ key: Key, patch: CounterPatchInput }),
    response: CounterRow,
    rest: { method: 'patch', path: '/counter/{key}', body: 'patch' },
    run: (ctx, input) => counters.patchCounter(ctx, ctx.actor, input.key, input.patch),
  }),
  copy: mutation({
    summary: 'Mass copy: a copy of each chosen counter named "<name> (2)" ..., numbering from 1; all or none (404 NOT_FOUND for an unknown key)',
    access: admin,
    input: CounterCopyInput,
    response: v.array(CounterRow),
    rest: { method: 'post', path: '/counter/copy', status: 201 },
    run: (ctx, input) => counters.copyCounters(ctx, ctx.actor, input),
  }),
  delete: mutation({
    summary: 'Delete a counter; one that made serials or that a phase uses cannot be deleted (409 COUNTER_IN_USE)',
    access: admin,
    input: ByKey,
    response: v.object({ _key: v.string() }),
    rest: { method: 'delete', path: '/counter/{key}' },
    run: (ctx, input) => counters.deleteCounter(ctx, ctx.actor, input.key),
  }),
})
