import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import {
  Alert,
  Avatar,
  Badge,
  Box,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { parseScope, SCOPES, type Scope } from '../../../../../src/auth/scopes'
import { BADGE_MAX } from '../../../../../src/domains/signatures/schemas'
import { EMAIL_MAX, EMAIL_PATTERN, HOURLY_COST_MAX, USER_NAME_MAX, USERNAME_MAX, type UserRow } from '../../../../../src/domains/users/schemas'
import { type NumberRules, readNumberText } from '../../../../../src/i18n/number-text'
import type { ErrorCode } from '../../../../../src/errors'
import type { ApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { capitalised, issueText } from '../../../../lib/input-issue-messages'
import { NumberTextInput, toNumberText } from '../../../../components/NumberTextInput'
import { queryClient, trpc } from '../../../../lib/trpc'
import { SCOPE_LABELS } from '../../../../lib/scope-labels'
import { initialsOf } from '../../../../lib/user-names'

const SCOPE_COLORS: Record<Scope, string> = {
  admin: 'red',
  library: 'grape',
  operator: 'teal',
  production: 'blue',
  quality: 'orange',
  traceability: 'cyan',
  reporting: 'gray',
  warehouse: 'yellow',
  audit: 'indigo',
}

/** Badges keep their whole label (Mantine would cut it short in a narrow table column). */
export const badgeStyles = { root: { overflow: 'visible', flexShrink: 0 }, label: { overflow: 'visible' } } as const

export function PermissionBadges({ scope }: { scope: string }) {
  const { i18n } = useLingui()
  const words = parseScope(scope)
  if (words.length === SCOPES.length) {
    return (
      <Badge size="sm" variant="light" color={SCOPE_COLORS.admin} tt="none" styles={badgeStyles}>
        <Trans>Tutti i permessi</Trans>
      </Badge>
    )
  }
  return (
    <Group gap={4} wrap="wrap" maw={210}>
      {words.map((s) => (
        <Badge key={s} size="sm" variant="light" color={SCOPE_COLORS[s]} tt="none" styles={badgeStyles}>
          {i18n._(SCOPE_LABELS[s])}
        </Badge>
      ))}
    </Group>
  )
}

/** A coloured dot and a word: enabled, signed in ... */
export function StatusDot({ color, children }: { color: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Box w={8} h={8} bg={color} style={{ borderRadius: '50%', flexShrink: 0 }} />
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {children}
      </Text>
    </Group>
  )
}

export function UserAvatar({ user, size = 'sm' }: { user: Pick<UserRow, 'name' | 'surname' | 'username' | 'image_url'>; size?: number | 'sm' | 'md' | 'lg' | 'xl' }) {
  return (
    <Avatar src={user.image_url} size={size} color="teal" radius={1000} alt="">
      {initialsOf(user)}
    </Avatar>
  )
}

/** Everything but the password and the image: what the create and detail forms edit. */
export type UserDraft = {
  username: string
  name: string
  surname: string
  email: string
  department_key: string | null
  /** As typed (NumberTextInput); '' = no cost set. */
  hourly_cost: string
  scope: Scope[]
  enabled: boolean
  /** What the user's badge scanner types; '' = none. */
  badge: string
}

export type DraftField = keyof UserDraft
export type FieldErrors = Partial<Record<DraftField, string>>

export const EMPTY_DRAFT: UserDraft = {
  username: '',
  name: '',
  surname: '',
  email: '',
  department_key: null,
  hourly_cost: '',
  scope: [],
  enabled: true,
  badge: '',
}

export function draftOf(user: UserRow): UserDraft {
  return {
    username: user.username,
    name: user.name,
    surname: user.surname,
    email: user.email ?? '',
    department_key: user.department_key,
    hourly_cost: toNumberText(user.hourly_cost),
    scope: parseScope(user.scope),
    enabled: user.enabled,
    badge: user.badge ?? '',
  }
}

const HOURLY_COST_RULES: NumberRules = { min: 0, max: HOURLY_COST_MAX }

/** The typed cost: null when empty, NaN when refused (validateDraft stops those before any request). */
function hourlyCostOf(draft: UserDraft): number | null {
  const read = readNumberText(draft.hourly_cost, HOURLY_COST_RULES)
  return read.ok ? read.value : Number.NaN
}

/** The request body for a draft: what the API calls each field. */
export function payloadOf(draft: UserDraft) {
  return {
    username: draft.username.trim(),
    name: draft.name.trim(),
    surname: draft.surname.trim(),
    email: draft.email.trim() || null,
    department_key: draft.department_key,
    hourly_cost: hourlyCostOf(draft),
    scope: SCOPES.filter((s) => draft.scope.includes(s)).join(' '),
    enabled: draft.enabled,
    badge: draft.badge.trim() || null,
  }
}
export type UserPayload = ReturnType<typeof payloadOf>

/** SPEC 5: only what changed is sent; an empty patch means there is nothing to save. */
export function patchOf(original: UserRow, draft: UserDraft): Partial<UserPayload> {
  const before = payloadOf(draftOf(original))
  const after = payloadOf(draft)
  const patch: Partial<UserPayload> = {}
  for (const key of Object.keys(after) as (keyof UserPayload)[]) {
    if (!Object.is(before[key], after[key])) (patch as Record<string, unknown>)[key] = after[key]
  }
  return patch
}

/** The rules the server checks, checked here first so the admin sees them next to the fields. */
export function validateDraft(draft: UserDraft, i18n: { _: (m: MessageDescriptor) => string }): FieldErrors {
  const errors: FieldErrors = {}
  if (!draft.username.trim()) errors.username = i18n._(msg`Username obbligatorio`)
  if (draft.scope.length === 0) errors.scope = i18n._(msg`Seleziona almeno un permesso`)
  const cost = readNumberText(draft.hourly_cost, HOURLY_COST_RULES)
  if (!cost.ok) errors.hourly_cost = capitalised(issueText(cost.problem, cost.limit))
  if (draft.email.trim() && !EMAIL_PATTERN.test(draft.email.trim())) errors.email = i18n._(msg`Indirizzo email non valido`)
  return errors
}

/** Which field a server refusal is about, so its message can sit next to that field. */
const FIELD_OF_CODE: Partial<Record<ErrorCode, DraftField>> = {
  USERNAME_REQUIRED: 'username',
  USERNAME_TAKEN: 'username',
  USERNAME_ARCHIVED: 'username',
  PERMISSION_REQUIRED: 'scope',
  UNKNOWN_PERMISSION: 'scope',
  CANNOT_REMOVE_OWN_ADMIN: 'scope',
  HOURLY_COST_NEGATIVE: 'hourly_cost',
  WRONG_DEPARTMENT_KEY: 'department_key',
  CANNOT_DISABLE_SELF: 'enabled',
  BADGE_TAKEN: 'badge',
}

/** A refusal as a field error when it names one of the form's fields, else null. */
export function fieldErrorOf(error: ApiError): FieldErrors | null {
  const field = FIELD_OF_CODE[error.code as ErrorCode]
  if (field) return { [field]: errorMessage(error) }
  if (error.code === 'INVALID_INPUT') {
    const issues = (error.extra.issues as { path?: string }[] | undefined) ?? []
    const path = issues[0]?.path ?? error.message.split(':')[0] ?? ''
    const named = (Object.keys(EMPTY_DRAFT) as DraftField[]).find((f) => path === f || path.endsWith(`.${f}`))
    if (named) return { [named]: errorMessage(error) }
  }
  return null
}

export function useDepartments() {
  return useQuery(trpc.departments.list.queryOptions())
}

/** Every user query (lists, pages, details) is stale after a change. */
export const invalidateUsers = () => queryClient.invalidateQueries(trpc.users.pathFilter())

/** The fields of a user, shared by the new-user page and the detail page. */
export function UserFields(props: {
  draft: UserDraft
  onChange: (draft: UserDraft) => void
  errors: FieldErrors
  /** The signed-in admin editing themselves: enabled and admin stay as they are. */
  isSelf?: boolean
  showEnabled?: boolean
  disabled?: boolean
}) {
  const { t, i18n } = useLingui()
  const { draft, errors, isSelf } = props
  const departments = useDepartments()
  const set = <K extends DraftField>(key: K, value: UserDraft[K]) => props.onChange({ ...draft, [key]: value })
  const departmentOptions = (departments.data ?? []).map((d) => ({ value: d._key, label: `${d.name} (${d.code})` }))
  // A department that vanished still shows as its key rather than an empty box.
  if (draft.department_key && departments.data && !departmentOptions.some((o) => o.value === draft.department_key)) {
    departmentOptions.push({ value: draft.department_key, label: draft.department_key })
  }

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <TextInput
          label={t`Username`}
          required
          autoComplete="off"
          maxLength={USERNAME_MAX}
          value={draft.username}
          onChange={(e) => set('username', e.currentTarget.value)}
          error={errors.username}
          disabled={props.disabled}
          data-autofocus
        />
        <TextInput
          label={t`Email`}
          type="email"
          autoComplete="off"
          maxLength={EMAIL_MAX}
          value={draft.email}
          onChange={(e) => set('email', e.currentTarget.value)}
          error={errors.email}
          disabled={props.disabled}
        />
        <TextInput label={t`Nome`} maxLength={USER_NAME_MAX} value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} disabled={props.disabled} />
        <TextInput
          label={t`Cognome`}
          maxLength={USER_NAME_MAX}
          value={draft.surname}
          onChange={(e) => set('surname', e.currentTarget.value)}
          error={errors.surname}
          disabled={props.disabled}
        />
        <Select
          label={t`Reparto`}
          placeholder={departments.isLoading ? t`Caricamento…` : t`Nessun reparto`}
          data={departmentOptions}
          value={draft.department_key}
          onChange={(value) => set('department_key', value)}
          clearable
          searchable
          nothingFoundMessage={t`Nessun reparto trovato`}
          error={errors.department_key}
          disabled={props.disabled}
        />
        <NumberTextInput
          label={t`Costo orario (€/h)`}
          name="hourly_cost"
          {...HOURLY_COST_RULES}
          value={draft.hourly_cost}
          onChange={(text) => set('hourly_cost', text)}
          error={errors.hourly_cost}
          disabled={props.disabled}
        />
        <TextInput
          label={t`Badge`}
          description={t`Il codice che scrive il lettore di badge: identifica il secondo firmatario che firma con il PIN`}
          name="badge"
          autoComplete="off"
          maxLength={BADGE_MAX}
          value={draft.badge}
          onChange={(e) => set('badge', e.currentTarget.value.replace(/\s/g, ''))}
          error={errors.badge}
          disabled={props.disabled}
        />
      </SimpleGrid>
      <Checkbox.Group
        label={t`Permessi`}
        description={t`Le aree dell'applicazione che l'utente può aprire`}
        withAsterisk
        value={draft.scope}
        onChange={(value) => set('scope', value as Scope[])}
        error={errors.scope}
      >
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs" mt="xs">
          {SCOPES.map((s) => (
            <Checkbox
              key={s}
              value={s}
              label={i18n._(SCOPE_LABELS[s])}
              // Nobody takes away their own admin permission (the server refuses it too).
              disabled={props.disabled || (isSelf && s === 'admin' && draft.scope.includes('admin'))}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      {props.showEnabled && (
        <Switch
          label={t`Abilitato`}
          description={
            isSelf ? t`Non puoi disabilitare il tuo stesso utente` : t`Un utente disabilitato non può accedere; le sue sessioni vengono chiuse subito`
          }
          checked={draft.enabled}
          onChange={(e) => set('enabled', e.currentTarget.checked)}
          disabled={props.disabled || isSelf}
          error={errors.enabled}
        />
      )}
    </Stack>
  )
}

/** SPEC 6: a temporary password is shown once; the user must replace it at the next sign-in. */
export function TempPasswordModal({ username, password, onClose, title }: { username: string; password: string | null; onClose: () => void; title: ReactNode }) {
  const { t } = useLingui()
  return (
    <Modal opened={password !== null} onClose={onClose} title={title} closeOnClickOutside={false} centered size="md">
      <Stack>
        <Text size="sm">
          <Trans>
            Password temporanea per <b>{username}</b>:
          </Trans>
        </Text>
        <Group gap="sm" wrap="nowrap" justify="space-between" p="sm" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 8 }}>
          <Code fz="xl" fw={700} bg="transparent" data-testid="temp-password" style={{ letterSpacing: 1, userSelect: 'all' }}>
            {password}
          </Code>
          <CopyButton value={password ?? ''} timeout={2000}>
            {({ copied, copy }) => (
              <Button size="xs" variant={copied ? 'filled' : 'light'} color={copied ? 'teal' : undefined} onClick={copy}>
                {copied ? t`Copiata` : t`Copia`}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Alert color="orange" variant="light" title={t`Viene mostrata solo ora`}>
          <Trans>Copiala e consegnala all'utente: non sarà più visibile. Al primo accesso l'utente dovrà sceglierne una nuova.</Trans>
        </Alert>
        <Group justify="flex-end">
          <Button onClick={onClose}>
            <Trans>Fatto</Trans>
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** A small read-only fact on the detail page (creation date, last login ...). */
export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  )
}


