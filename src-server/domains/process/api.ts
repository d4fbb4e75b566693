import * as v from 'valibot'
import { MAX_MEDIA_BYTES, STEP_MEDIA_FIELD, StepMediaRow } from '../../../src/domains/process/media'
import { CopyProcessInput, Process, ProcessInput } from '../../../src/domains/process/process'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { PROCESS_READERS } from './access'
import * as processes from './service'
import * as stepMedia from './step-media'

const read = { scope: PROCESS_READERS }
const library = { scope: 'library' } as const

export const processApi = useCases('process', {
  get: query({
    summary: 'The process of a product: ordered phases with operation, department, parameters, steps, production notes, print templates and component count',
    access: read,
    input: v.object({ key: Key }),
    response: Process,
    rest: { method: 'get', path: '/product/{key}/process' },
    run: (ctx, input) => processes.getProcess(ctx, input.key),
  }),
  update: mutation({
    summary:
      'Replace the process with the whole ordered list of phases: phases with _key are kept and updated, new ones copy their operation\'s default steps (new step keys) and the default phase parameters unless given, missing ones are removed (409 PHASE_HAS_COMPONENTS for a phase with bom lines). Each phase carries its traceability_level (none, form, complete) and counter_key (the counter numbering what it produces). Errors: 422 UNKNOWN_PHASE, UNKNOWN_OPERATION, WRONG_DEPARTMENT_KEY, UNKNOWN_COUNTER; 400 RELEASE_BATCH_QT_REQUIRED, STEP_FIELDS_REQUIRED, UNKNOWN_FIELD, FIELD_ARCHIVED, UNKNOWN_MEDIA',
    access: library,
    input: v.object({ key: Key, ...ProcessInput.entries }),
    response: Process,
    rest: { method: 'put', path: '/product/{key}/process' },
    run: (ctx, { key, ...process }) => processes.updateProcess(ctx, ctx.actor, key, process),
  }),
  copy: mutation({
    summary:
      'Append the phases of another product (all, or phase_keys) with new phase and step keys, their parameters, traceability level and counter; bom lines are not copied. Errors: 400 PROCESS_COPY_SELF, 422 UNKNOWN_PRODUCT, UNKNOWN_PHASE, PROCESS_COPY_EMPTY',
    access: library,
    input: v.object({ key: Key, ...CopyProcessInput.entries }),
    response: Process,
    rest: { method: 'post', path: '/product/{key}/process/copy' },
    run: (ctx, { key, ...copy }) => processes.copyProcess(ctx, ctx.actor, key, copy),
  }),
  counterChoices: query({
    summary: 'The counters the process editor offers for a phase (library users do not read the counter library)',
    access: library,
    run: (ctx) => processes.listCounterChoices(ctx),
  }),
  stepMedia: query({
    summary: 'The media attached to a product step, in order; step_url is /media/step/{key}/{filename}',
    access: read,
    input: v.object({ step_key: Key }),
    response: v.array(StepMediaRow),
    rest: { method: 'get', path: '/step/{key}/media', params: { key: 'step_key' } },
    run: (ctx, input) => stepMedia.listStepMedia(ctx, input.step_key),
  }),
  addStepMedia: restOnly({
    summary: `Upload a file and attach it at the end of a product step (multipart field ${STEP_MEDIA_FIELD}: PNG, JPEG, WebP or GIF image up to 10 MiB, PDF, MP4 or WebM video up to 25 MiB); a name already attached to the step is refused (409 STEP_MEDIA_NAME_TAKEN)`,
    access: library,
    input: v.object({ key: Key, [STEP_MEDIA_FIELD]: v.file(`${STEP_MEDIA_FIELD} must be a file`) }),
    response: StepMediaRow,
    rest: { method: 'post', path: '/step/{key}/media', multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 }, status: 201 },
    run: (ctx, input) => stepMedia.addStepMedia(ctx, ctx.actor, input.key, input[STEP_MEDIA_FIELD]),
  }),
  removeStepMedia: restOnly({
    summary: 'Detach the media of that file name from a product step (the media itself stays: copied steps may share it); answers the media still attached',
    access: library,
    input: v.object({ key: Key, filename: v.pipe(v.string(), v.minLength(1), v.maxLength(255)) }),
    response: v.array(StepMediaRow),
    rest: { method: 'delete', path: '/step/{key}/media/{filename}' },
    run: (ctx, input) => stepMedia.removeStepMedia(ctx, ctx.actor, input.key, input.filename),
  }),
})
