import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Anchor, Button, Group, Paper, Stack, Title } from '@mantine/core'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifySuccess } from '../../../../lib/notify'
import { trpcClient } from '../../../../lib/trpc'
import {
  EMPTY_DRAFT,
  type FieldErrors,
  fieldErrorOf,
  invalidateUsers,
  payloadOf,
  TempPasswordModal,
  type UserDraft,
  UserFields,
  validateDraft,
} from './-user-ui'

export const Route = createFileRoute('/app/admin/users/new')({
  component: NewUser,
})

/** A new user gets a temporary password, shown once here, to be replaced at first sign-in. */
function NewUser() {
  const { t, i18n } = useLingui()
  const navigate = useNavigate()
  const [draft, setDraft] = useState<UserDraft>({ ...EMPTY_DRAFT, scope: ['operator'] })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [created, setCreated] = useState<{ key: string; username: string; password: string } | null>(null)

  function change(next: UserDraft) {
    setDraft(next)
    // A field's error goes away once the admin edits that field.
    setErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => next[k as keyof UserDraft] === draft[k as keyof UserDraft])))
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault()
    setFailure(null)
    const found = validateDraft(draft, i18n)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setSaving(true)
    try {
      const { enabled: _, ...body } = payloadOf(draft)
      const res = await trpcClient.users.create.mutate(body)
      await invalidateUsers()
      notifySuccess(t`Utente creato`)
      setCreated({ key: res._key, username: body.username, password: res.temp_psw })
    } catch (err) {
      const apiError = toApiError(err)
      const fieldError = fieldErrorOf(apiError)
      if (fieldError) setErrors(fieldError)
      else setFailure(errorMessage(apiError))
    } finally {
      setSaving(false)
    }
  }

  return (
    <Stack gap="md" maw={860}>
      <Anchor component={Link} to="/app/admin/users" size="sm">
        ← <Trans>Utenti</Trans>
      </Anchor>
      <Title order={3}>
        <Trans>Nuovo utente</Trans>
      </Title>
      <Paper withBorder p="lg" radius="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="lg">
            <UserFields draft={draft} onChange={change} errors={errors} disabled={saving || created !== null} />
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" component={Link} to="/app/admin/users">
                <Trans>Annulla</Trans>
              </Button>
              <Button type="submit" loading={saving} disabled={created !== null}>
                <Trans>Crea utente</Trans>
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <TempPasswordModal
        title={<Trans>Utente creato</Trans>}
        username={created?.username ?? ''}
        password={created?.password ?? null}
        onClose={() => created && navigate({ to: '/app/admin/users/$user_key', params: { user_key: created.key } })}
      />
    </Stack>
  )
}
