import { plural } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Group, Modal, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute } from '@tanstack/react-router'
import { useState } from 'react'
import { DEPARTMENT_CODE_MAX, DEPARTMENT_NAME_MAX, type DepartmentRow } from '../../../../../src/domains/departments/schemas'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { queryClient, trpc, trpcClient } from '../../../../lib/trpc'
import { Loading } from '../../../../components/QueryState'
import { Section, SettingsTable } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/departments')({
  component: DepartmentsTab,
})

const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.departments.list.queryKey() })

function DepartmentsTab() {
  const { t } = useLingui()
  const { data } = useQuery(trpc.departments.list.queryOptions())
  const [editing, setEditing] = useState<string | null>(null)
  const [deleting, setDeleting] = useState<DepartmentRow | null>(null)
  const editLabel = (code: string) => t`Modifica ${code}`
  const deleteLabel = (code: string) => t`Elimina ${code}`

  return (
    <Stack maw={900} gap="lg">
      <Section
        title={<Trans>Reparti</Trans>}
        description={<Trans>I reparti a cui appartengono gli utenti. Un reparto assegnato a qualcuno non può essere eliminato.</Trans>}
      >
        <AddDepartment />
        {!data ? (
          <Loading />
        ) : (
          <SettingsTable
            testid="departments-table"
            columns={[{ label: <Trans>Codice</Trans>, w: 180 }, { label: <Trans>Nome</Trans> }, { label: <Trans>Utenti</Trans>, w: 90, ta: 'right' }, { w: 200 }]}
            empty={data.length === 0 && <Trans>Nessun reparto</Trans>}
          >
            {data.map((d) =>
              editing === d._key ? (
                <EditRow key={d._key} department={d} onDone={() => setEditing(null)} />
              ) : (
                <Table.Tr key={d._key} data-testid={`department-${d.code}`}>
                  <Table.Td>
                    <Badge variant="light" size="lg" radius="sm" tt="none">
                      {d.code}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{d.name}</Table.Td>
                  <Table.Td ta="right">{d.user_count}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button size="compact-sm" variant="default" onClick={() => setEditing(d._key)} aria-label={editLabel(d.code)}>
                        <Trans>Modifica</Trans>
                      </Button>
                      <Tooltip
                        label={plural(d.user_count, {
                          one: 'Assegnato a # utente: non può essere eliminato',
                          other: 'Assegnato a # utenti: non può essere eliminato',
                        })}
                        disabled={d.user_count === 0}
                        withArrow
                      >
                        {/* A disabled button gets no pointer events: the wrapper keeps the tooltip working. */}
                        <span>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            disabled={d.user_count > 0}
                            onClick={() => setDeleting(d)}
                            aria-label={deleteLabel(d.code)}
                          >
                            <Trans>Elimina</Trans>
                          </Button>
                        </span>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ),
            )}
          </SettingsTable>
        )}
      </Section>
      <DeleteDepartment department={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  )
}

function AddDepartment() {
  const { t } = useLingui()
  const [code, setCode] = useState('')
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const ready = code.trim() !== '' && name.trim() !== ''

  async function add(e: React.FormEvent) {
    e.preventDefault()
    if (!ready) return
    setBusy(true)
    try {
      const row = await trpcClient.departments.create.mutate({ code: code.trim(), name: name.trim() })
      await refresh()
      setCode('')
      setName('')
      const created = row.code
      notifySuccess(t`Reparto ${created} creato`)
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={add}>
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <TextInput
          label={t`Codice`}
          name="new-department-code"
          w={180}
          maxLength={DEPARTMENT_CODE_MAX}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
        <TextInput
          label={t`Nome`}
          name="new-department-name"
          style={{ flex: 1 }}
          maxLength={DEPARTMENT_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Button type="submit" disabled={!ready} loading={busy}>
          <Trans>Aggiungi reparto</Trans>
        </Button>
      </Group>
    </form>
  )
}

function EditRow({ department, onDone }: { department: DepartmentRow; onDone: () => void }) {
  const { t } = useLingui()
  const [code, setCode] = useState(department.code)
  const [name, setName] = useState(department.name)
  const [busy, setBusy] = useState(false)
  const ready = code.trim() !== '' && name.trim() !== ''

  async function save() {
    if (!ready) return
    const patch = {
      ...(code.trim() !== department.code ? { code: code.trim() } : {}),
      ...(name.trim() !== department.name ? { name: name.trim() } : {}),
    }
    if (Object.keys(patch).length === 0) return onDone()
    setBusy(true)
    try {
      await trpcClient.departments.update.mutate({ key: department._key, patch })
      await refresh()
      notifySuccess(t`Reparto aggiornato`)
      onDone()
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter') void save()
    if (e.key === 'Escape') onDone()
  }

  return (
    <Table.Tr data-testid="department-editing">
      <Table.Td>
        <TextInput
          aria-label={t`Codice`}
          name="department-code"
          size="sm"
          maxLength={DEPARTMENT_CODE_MAX}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          onKeyDown={onKey}
          error={!code.trim()}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label={t`Nome`}
          name="department-name"
          size="sm"
          maxLength={DEPARTMENT_NAME_MAX}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onKeyDown={onKey}
          error={!name.trim()}
          autoFocus
        />
      </Table.Td>
      <Table.Td ta="right">{department.user_count}</Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" onClick={save} loading={busy} disabled={!ready}>
            <Trans>Salva</Trans>
          </Button>
          <Button size="compact-sm" variant="default" onClick={onDone} disabled={busy}>
            <Trans>Annulla</Trans>
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  )
}

function DeleteDepartment({ department, onClose }: { department: DepartmentRow | null; onClose: () => void }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)

  async function confirm() {
    if (!department) return
    setBusy(true)
    try {
      await trpcClient.departments.remove.mutate({ key: department._key })
      const deleted = department.code
      notifySuccess(t`Reparto ${deleted} eliminato`)
      onClose()
    } catch (err) {
      notifyError(err)
      onClose()
    } finally {
      await refresh()
      setBusy(false)
    }
  }

  return (
    <Modal opened={department !== null} onClose={onClose} title={<Trans>Eliminare il reparto?</Trans>} centered>
      {department && (
        <Stack>
          <DeleteText code={department.code} name={department.name} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              <Trans>Annulla</Trans>
            </Button>
            <Button color="red" onClick={confirm} loading={busy}>
              <Trans>Elimina</Trans>
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  )
}

function DeleteText({ code, name }: { code: string; name: string }) {
  return (
    <Text>
      <Trans>
        Il reparto {code} ({name}) sarà eliminato.
      </Trans>
    </Text>
  )
}
