import * as v from 'valibot'
import { MAX_MEDIA_BYTES, STEP_MEDIA_FIELD, StepMediaRow } from '../../../src/domains/process/media'
import { CopyProcessInput, Process, ProcessInput } from '../../../src/domains/process/process'
import { Key } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import * as processes from './service'
import * as stepMedia from './step-media'
import { PROCESS_READERS } from './trpc'

const tag = 'process'
const ProductParams = v.object({ key: Key })
const StepParams = v.object({ key: Key })

export const processRoutes = [
  route({
    method: 'get',
    path: '/product/{key}/process',
    tag,
    summary: 'The process of a product: ordered phases with operation, department, parameters, steps, production notes, print templates and component count',
    access: { scope: PROCESS_READERS },
    params: ProductParams,
    response: Process,
    handler: (ctx, { params }) => processes.getProcess(ctx, params.key),
  }),
  route({
    method: 'put',
    path: '/product/{key}/process',
    tag,
    summary:
      'Replace the process with the whole ordered list of phases: phases with _key are kept and updated, new ones copy their operation\'s default steps (new step keys) and the default phase parameters unless given, missing ones are removed (409 PHASE_HAS_COMPONENTS for a phase with bom lines). Each phase carries its traceability_level (none, form, complete) and counter_key (the counter numbering what it produces). Errors: 422 UNKNOWN_PHASE, UNKNOWN_OPERATION, WRONG_DEPARTMENT_KEY, UNKNOWN_COUNTER; 400 RELEASE_BATCH_QT_REQUIRED, STEP_FIELDS_REQUIRED, UNKNOWN_FIELD, FIELD_ARCHIVED, UNKNOWN_MEDIA',
    access: { scope: 'library' },
    params: ProductParams,
    body: ProcessInput,
    response: Process,
    handler: (ctx, { params, body }) => processes.updateProcess(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/product/{key}/process/copy',
    tag,
    summary:
      'Append the phases of another product (all, or phase_keys) with new phase and step keys, their parameters, traceability level and counter; bom lines are not copied. Errors: 400 PROCESS_COPY_SELF, 422 UNKNOWN_PRODUCT, UNKNOWN_PHASE, PROCESS_COPY_EMPTY',
    access: { scope: 'library' },
    params: ProductParams,
    body: CopyProcessInput,
    response: Process,
    handler: (ctx, { params, body }) => processes.copyProcess(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'get',
    path: '/step/{key}/media',
    tag,
    summary: 'The media attached to a product step, in order; step_url is /media/step/{key}/{filename}',
    access: { scope: PROCESS_READERS },
    params: StepParams,
    response: v.array(StepMediaRow),
    handler: (ctx, { params }) => stepMedia.listStepMedia(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/step/{key}/media',
    tag,
    summary: `Upload a file and attach it at the end of a product step (multipart field ${STEP_MEDIA_FIELD}: PNG, JPEG, WebP or GIF image up to 10 MiB, PDF, MP4 or WebM video up to 25 MiB); a name already attached to the step is refused (409 STEP_MEDIA_NAME_TAKEN)`,
    access: { scope: 'library' },
    params: StepParams,
    multipart: { maxBytes: MAX_MEDIA_BYTES + 64 * 1024 },
    body: v.object({ [STEP_MEDIA_FIELD]: v.file(`${STEP_MEDIA_FIELD} must be a file`) }),
    response: StepMediaRow,
    status: 201,
    handler: (ctx, { params, body }) => stepMedia.addStepMedia(ctx, ctx.actor!, params.key, body[STEP_MEDIA_FIELD]),
  }),
  route({
    method: 'delete',
    path: '/step/{key}/media/{filename}',
    tag,
    summary: 'Detach the media of that file name from a product step (the media itself stays: copied steps may share it); answers the media still attached',
    access: { scope: 'library' },
    params: v.object({ key: Key, filename: v.pipe(v.string(), v.minLength(1), v.maxLength(255)) }),
    response: v.array(StepMediaRow),
    handler: (ctx, { params }) => stepMedia.removeStepMedia(ctx, ctx.actor!, params.key, params.filename),
  }),
]
