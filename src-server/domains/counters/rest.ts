import * as v from 'valibot'
import { CounterCopyInput, CounterCreateInput, CounterPatchInput, CounterRow } from '../../../src/domains/counters/schemas'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as counters from './service'

const tag = 'counters'
const KeyParams = v.object({ key: Key })
const TEMPLATE_ERRORS =
  '400 COUNTER_TEMPLATE_BRACES, COUNTER_TEMPLATE_UNKNOWN_PART, COUNTER_TEMPLATE_SEQUENCE (exactly one {#...} of 1-12 digits), COUNTER_TEMPLATE_PERIOD_MISSING (a counter that resets shows its period); 409 COUNTER_SEQUENCE_FULL (next_value wider than the sequence)'

export const counterRoutes = [
  route({
    method: 'get',
    path: '/counter',
    tag,
    summary: 'The counters by name, each with the next value, reset date, next tick (next reset) and the next code as it would be made now',
    access: { scope: 'admin' },
    response: v.array(CounterRow),
    handler: async (ctx) => (await counters.listCounters(ctx)).rows,
  }),
  route({
    method: 'get',
    path: '/counter/{key}',
    tag,
    summary: 'One counter with its next value and next code',
    access: { scope: 'admin' },
    params: KeyParams,
    response: CounterRow,
    handler: (ctx, { params }) => counters.getCounter(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/counter',
    tag,
    summary: `Create a counter: name (unique whatever the case: 409 COUNTER_NAME_TAKEN), template with literal text, {YYYY} {YY} {MM} {DD} {WW} (ISO week; with it the year is the ISO week year) and one zero-padded sequence {#####}, frequency never|year|month|week|day (plant calendar), next_value. Errors: ${TEMPLATE_ERRORS}`,
    access: { scope: 'admin' },
    body: CounterCreateInput,
    response: CounterRow,
    status: 201,
    handler: (ctx, { body }) => counters.createCounter(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/counter/{key}',
    tag,
    summary: `Change name, template, frequency and/or next_value (applies from the current period). Errors: ${TEMPLATE_ERRORS}`,
    access: { scope: 'admin' },
    params: KeyParams,
    body: CounterPatchInput,
    response: CounterRow,
    handler: (ctx, { params, body }) => counters.patchCounter(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/counter/copy',
    tag,
    summary: 'Mass copy: a copy of each chosen counter named "<name> (2)" ..., numbering from 1; all or none (404 NOT_FOUND for an unknown key)',
    access: { scope: 'admin' },
    body: CounterCopyInput,
    response: v.array(CounterRow),
    status: 201,
    handler: (ctx, { body }) => counters.copyCounters(ctx, ctx.actor!, body),
  }),
  route({
    method: 'delete',
    path: '/counter/{key}',
    tag,
    summary: 'Delete a counter; one that made serials or that a phase uses cannot be deleted (409 COUNTER_IN_USE)',
    access: { scope: 'admin' },
    params: KeyParams,
    response: v.object({ _key: v.string() }),
    handler: (ctx, { params }) => counters.deleteCounter(ctx, ctx.actor!, params.key),
  }),
]
