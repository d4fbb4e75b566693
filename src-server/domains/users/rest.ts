import * as v from 'valibot'
import { SCOPES } from '../../../src/auth/scopes'
import {
  SORT_DIRECTIONS,
  TempPassword,
  USER_PAGE_SIZE_MAX,
  USER_SORTS,
  UserCreateInput,
  UserPage,
  UserPatchInput,
  UserRow,
} from '../../../src/domains/users/schemas'
import { Key, QueryBool, QueryInt } from '../../../src/valibot-helpers'
import { route } from '../../rest/route'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import * as users from './service'

const tag = 'users'
const KeyParams = v.object({ key: Key })

/** Query-string filters shared by `GET user` and `GET user-page`. */
const filterQuery = {
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  sort: v.optional(v.picklist(USER_SORTS)),
  dir: v.optional(v.picklist(SORT_DIRECTIONS)),
  archived: v.optional(QueryBool),
  enabled: v.optional(QueryBool),
  scope: v.optional(v.picklist(SCOPES)),
}

export const userRoutes = [
  route({
    method: 'get',
    path: '/user',
    tag,
    summary:
      'List users, sorted by username unless `sort`/`dir` say otherwise. `active_only` (default true unless `archived` or ' +
      '`enabled` is given) keeps the users who can sign in; `scope=operator` is the operator list; `search` matches ' +
      'username, name, surname and email.',
    access: { scope: ['admin', 'production'] },
    query: v.object({ active_only: v.optional(QueryBool), ...filterQuery }),
    response: v.array(UserRow),
    handler: (ctx, { query }) => {
      const { active_only, ...rest } = query
      const activeOnly = active_only ?? (rest.archived === undefined && rest.enabled === undefined)
      return users.listUsers(ctx, { activeOnly, ...rest })
    },
  }),
  route({
    method: 'get',
    path: '/user-page',
    tag,
    summary: `One page of the user library (page from 1, page_size up to ${USER_PAGE_SIZE_MAX}, default ${users.DEFAULT_PAGE_SIZE}) with the total of matching users; archived users too unless \`archived=false\``,
    access: { scope: 'admin' },
    query: v.object({
      ...filterQuery,
      page: v.optional(QueryInt(1, 1_000_000)),
      page_size: v.optional(QueryInt(1, USER_PAGE_SIZE_MAX)),
    }),
    response: UserPage,
    handler: (ctx, { query }) => users.pageUsers(ctx, query),
  }),
  route({
    method: 'get',
    path: '/user/{key}',
    tag,
    summary: 'One user (archived ones too)',
    access: { scope: ['admin', 'production'] },
    params: KeyParams,
    response: UserRow,
    handler: (ctx, { params }) => users.getUser(ctx, params.key),
  }),
  route({
    method: 'post',
    path: '/user',
    tag,
    summary: 'Create a user; detail.temp_psw is the temporary password, shown once and to be replaced at first sign-in',
    access: { scope: 'admin' },
    body: UserCreateInput,
    response: TempPassword,
    status: 201,
    handler: (ctx, { body }) => users.createUser(ctx, ctx.actor!, body),
  }),
  route({
    method: 'patch',
    path: '/user/{key}',
    tag,
    summary:
      'Change a user (only the fields sent); anyone may change their own preferences, admins everything. ' +
      'Disabling ends the user’s sessions; nobody can disable themselves or remove their own admin permission.',
    access: { scope: 'signed-in', beforePasswordChange: true },
    params: KeyParams,
    body: UserPatchInput,
    response: UserRow,
    handler: (ctx, { params, body }) => users.patchUser(ctx, ctx.actor!, params.key, body),
  }),
  route({
    method: 'post',
    path: '/user/{key}/archive',
    tag,
    summary: 'Delete (archive) a user: hidden from lists, cannot sign in, sessions ended; records that name them are kept',
    access: { scope: 'admin' },
    params: KeyParams,
    response: UserRow,
    handler: (ctx, { params }) => users.archiveUser(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/user/{key}/restore',
    tag,
    summary: 'Restore an archived user',
    access: { scope: 'admin' },
    params: KeyParams,
    response: UserRow,
    handler: (ctx, { params }) => users.restoreUser(ctx, ctx.actor!, params.key),
  }),
  route({
    method: 'post',
    path: '/user/{key}/reset-password',
    tag,
    summary: 'Reset a password: detail.temp_psw is the new temporary password, shown once; the user’s sessions end',
    access: { scope: 'admin' },
    params: KeyParams,
    response: TempPassword,
    handler: (ctx, { params }) => users.resetPassword(ctx, ctx.actor!, params.key),
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
