import * as v from 'valibot'
import {
  TempPassword,
  USER_PAGE_SIZE_MAX,
  UserCreateInput,
  UserListInput,
  UserPage,
  UserPageInput,
  UserPatchInput,
  UserRow,
} from '../../../src/domains/users/schemas'
import { Key } from '../../../src/valibot-helpers'
import { mutation, query, restOnly, useCases } from '../../api/use-case'
import { MAX_IMAGE_BYTES } from '../../storage/images'
import * as users from './service'

const readers = { scope: ['admin', 'production'] } as const
const admin = { scope: 'admin' } as const
const ByKey = v.object({ key: Key })

export const usersApi = useCases('users', {
  list: query({
    summary:
      'List users, sorted by username unless `sort`/`dir` say otherwise. `active_only` (default true unless `archived` or ' +
      '`enabled` is given) keeps the users who can sign in; `scope=operator` is the operator list; `search` matches ' +
      'username, name, surname and email.',
    access: readers,
    input: UserListInput,
    response: v.array(UserRow),
    rest: { method: 'get', path: '/user' },
    run: (ctx, { active_only, ...filters }) =>
      users.listUsers(ctx, { activeOnly: active_only ?? (filters.archived === undefined && filters.enabled === undefined), ...filters }),
  }),
  page: query({
    summary: `One page of the user library (page from 1, page_size up to ${USER_PAGE_SIZE_MAX}, default ${users.DEFAULT_PAGE_SIZE}) with the total of matching users; archived users too unless \`archived=false\``,
    access: admin,
    input: UserPageInput,
    response: UserPage,
    rest: { method: 'get', path: '/user-page' },
    run: (ctx, input) => users.pageUsers(ctx, input),
  }),
  get: query({
    summary: 'One user (archived ones too)',
    access: readers,
    input: ByKey,
    response: UserRow,
    rest: { method: 'get', path: '/user/{key}' },
    run: (ctx, input) => users.getUser(ctx, input.key),
  }),
  create: mutation({
    summary: 'Create a user; detail.temp_psw is the temporary password, shown once and to be replaced at first sign-in',
    access: admin,
    input: UserCreateInput,
    response: TempPassword,
    rest: { method: 'post', path: '/user', status: 201 },
    run: (ctx, input) => users.createUser(ctx, ctx.actor, input),
  }),
  patch: mutation({
    summary:
      'Change a user (only the fields sent); anyone may change their own preferences, admins everything. ' +
      'Disabling ends the user’s sessions; nobody can disable themselves or remove their own admin permission.',
    access: { scope: 'signed-in', beforePasswordChange: true },
    input: v.object({ key: Key, patch: UserPatchInput }),
    response: UserRow,
    rest: { method: 'patch', path: '/user/{key}', body: 'patch' },
    run: (ctx, input) => users.patchUser(ctx, ctx.actor, input.key, input.patch),
  }),
  archive: mutation({
    summary: 'Delete (archive) a user: hidden from lists, cannot sign in, sessions ended; records that name them are kept',
    access: admin,
    input: ByKey,
    response: UserRow,
    rest: { method: 'post', path: '/user/{key}/archive' },
    run: (ctx, input) => users.archiveUser(ctx, ctx.actor, input.key),
  }),
  restore: mutation({
    summary: 'Restore an archived user',
    access: admin,
    input: ByKey,
    response: UserRow,
    rest: { method: 'post', path: '/user/{key}/restore' },
    run: (ctx, input) => users.restoreUser(ctx, ctx.actor, input.key),
  }),
  resetPassword: mutation({
    summary: 'Reset a password: detail.temp_psw is the new temporary password, shown once; the user’s sessions end',
    access: admin,
    input: ByKey,
    response: TempPassword,
    rest: { method: 'post', path: '/user/{key}/reset-password' },
    run: (ctx, input) => users.resetPassword(ctx, ctx.actor, input.key),
  }),
  clearPin: mutation({
    summary: 'Clear a user’s signing PIN: they sign with the password until they set a new one',
    access: admin,
    input: ByKey,
    response: UserRow,
    rest: { method: 'post', path: '/user/{key}/clear-pin' },
    run: (ctx, input) => users.clearPin(ctx, ctx.actor, input.key),
  }),
  setImage: restOnly({
    summary: 'Replace the user image (multipart field new_image: PNG, JPEG, WebP or GIF)',
    access: { scope: 'signed-in' },
    input: v.object({ key: Key, new_image: v.file('new_image must be a file') }),
    response: UserRow,
    rest: { method: 'put', path: '/user/{key}/image', multipart: { maxBytes: MAX_IMAGE_BYTES + 64 * 1024 } },
    run: (ctx, input) => users.setUserImage(ctx, ctx.actor, input.key, input.new_image),
  }),
})
