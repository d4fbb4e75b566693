import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import type { SortingState } from '../../../components/DataTable'
import { toApiError } from '../../../lib/api-error'
import { errorMessage } from '../../../lib/error-messages'

/** The admin libraries (operations, issue types, counters, form fields): shared page pieces. */

export function LibraryHeader({ title, description, action }: { title: ReactNode; description?: ReactNode; action?: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap">
      <div>
        <Title order={2}>{title}</Title>
        {description && (
          <Text c="dimmed" size="sm" mt={4} maw={720}>
            {description}
          </Text>
        )}
      </div>
      {action}
    </Group>
  )
}

export function SearchBox({ value, onChange, placeholder }: { value: string; onChange: (v: string) => void; placeholder: string }) {
  const { t } = useLingui()
  return (
    <TextInput
      type="search"
      aria-label={t`Cerca`}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      w={320}
      maw="100%"
    />
  )
}

export type StatusFilterValue = 'active' | 'inactive' | 'all'

/** Active / archived / all: the archive filter of a library list. */
export function StatusFilter({ value, onChange, inactiveLabel }: { value: StatusFilterValue; onChange: (v: StatusFilterValue) => void; inactiveLabel: string }) {
  const { t } = useLingui()
  return (
    <SegmentedControl
      value={value}
      onChange={(v) => onChange(v as StatusFilterValue)}
      data={[
        { value: 'active', label: t`Attivi` },
        { value: 'inactive', label: inactiveLabel },
        { value: 'all', label: t`Tutti` },
      ]}
    />
  )
}

/** Server-side sorting: the first sort column and direction, as the list procedures take them. */
export function sortInput<S extends string>(sorting: SortingState): { sort?: S; desc?: boolean } {
  const first = sorting[0]
  return first ? { sort: first.id as S, desc: first.desc } : {}
}

export type LibraryPath = '/app/admin/operations' | '/app/admin/issue-types' | '/app/admin/field' | '/app/admin/counter' | '/app/admin/general/serial-field'

export function BackLink({ to, children }: { to: LibraryPath; children: ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm" mb="xs" display="inline-block">
      ← {children}
    </Anchor>
  )
}

/** A detail whose key names nothing (deleted meanwhile, or a wrong link). */
export function LoadFailed({ error, back }: { error: unknown; back: ReactNode }) {
  return (
    <Stack maw={560}>
      {back}
      <Alert color="red" role="alert">
        {errorMessage(toApiError(error))}
      </Alert>
    </Stack>
  )
}

/**
 * The bottom row of a library form: `left` (delete, archive ...), then cancel and save. A new
 * record can be created at once (cancel leaves the form); an existing one waits for a change.
 */
export function FormFooter(props: { isNew: boolean; dirty: boolean; saving: boolean; onCancel: () => void; createLabel: ReactNode; left?: ReactNode }) {
  const { isNew, dirty, saving } = props
  return (
    <Group justify="space-between">
      <Group gap="xs">{props.left}</Group>
      <Group gap="sm">
        {dirty && (
          <Text size="sm" c="dimmed">
            <Trans>Modifiche non salvate</Trans>
          </Text>
        )}
        <Button variant="default" onClick={props.onCancel} disabled={isNew ? saving : !dirty || saving}>
          <Trans>Annulla</Trans>
        </Button>
        <Button type="submit" loading={saving} disabled={!isNew && !dirty}>
          {isNew ? props.createLabel : <Trans>Salva</Trans>}
        </Button>
      </Group>
    </Group>
  )
}

/**
 * A confirmation over a page: the question, the refusal from the server if any, cancel and the
 * action ("Elimina" unless told otherwise).
 */
export function ConfirmModal(props: {
  title: ReactNode
  children: ReactNode
  error?: ReactNode
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
  confirmLabel?: ReactNode
  /** A red action, with the focus on cancel (the default); otherwise the theme's colour, focused. */
  destructive?: boolean
  /** The confirm button waits (e.g. for the record it names). */
  disabled?: boolean
}) {
  const destructive = props.destructive ?? true
  return (
    <Modal opened onClose={props.onCancel} title={<Text fw={600}>{props.title}</Text>} centered>
      <Stack>
        <div>{props.children}</div>
        {props.error && (
          <Alert color="red" role="alert">
            {props.error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel} data-autofocus={destructive || undefined}>
            <Trans>Annulla</Trans>
          </Button>
          <Button
            color={destructive ? 'red' : undefined}
            onClick={props.onConfirm}
            loading={props.busy}
            disabled={Boolean(props.error) || props.disabled}
            data-autofocus={!destructive || undefined}
          >
            {props.confirmLabel ?? <Trans>Elimina</Trans>}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}
