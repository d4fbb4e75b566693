import * as v from 'valibot'
import { SCOPES } from '../../../src/auth/scopes'
import { UserCreateInput, UserPatchInput, UserRow } from '../../../src/domains/users/schemas'
import { Key, QueryBool } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import * as users from './service'

const tag = 'users'
const KeyParams = v.object({ key: Key })

export const userRoutes = [
  route({
    method: 'get',
    path: '/user',
    tag,
    summary: 'List users (archived ones only when active_only=false)',
    access: { scope: ['admin', 'production'] },
    query: v.object({ active_only: v.optional(QueryBool), scope: v.optional(v.picklist(SCOPES)) }),
    response: v.array(UserRow),
    handler: (ctx, { query }) => users.listUsers(ctx, { activeOnly: query.active_only ?? true, scope: query.scope }),
  }),
  route({
    method: 'get',
    path: '/user/{key}',
    tag,
    summary: 'One user',
    access: { scope: ['admin', 'production'] },
    params: KeyParams,
    response: UserRow,
    handler: (ctx, { params }) => users.getUser(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/user',
    tag,
    summary: 'Create a user; detail.temp_psw is the temporary password, shown once',
    access: { scope: 'admin' },
    body: UserCreateInput,
    response: v.object({ _key: v.string(), temp_psw: v.string() }),
    status: 201,
    handler: (ctx, { body }) => users.createUser(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/user/{key}',
    tag,
    summary: 'Change a user; anyone may change their own preferences, admins everything',
    access: { scope: 'signed-in', beforePasswordChange: true },
    params: KeyParams,
    body: UserPatchInput,
    response: UserRow,
    handler: (ctx, { params, body }) => users.patchUser(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'put',
    path: '/user/{key}/image',
    tag,
    summary: 'Replace the user image (multipart field new_image: PNG, JPEG, WebP or GIF)',
    access: { scope: 'signed-in' },
    params: KeyParams,
    multipart: { maxBytes: MAX_IMAGE_BYTES + 64 * 1024 },
    body: v.object({ new_image: v.file('new_image must be a file') }),
    response: UserRow,
    handler: (ctx, { params, body }) => users.setUserImage(ctx, ctx.actor!, params.key, body.new_image),
  }),
]
