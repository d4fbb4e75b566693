import { Trans, useLingui } from '@lingui/react/macro'
import {
  Alert,
  Anchor,
  Badge,
  Button,
  FileButton,
  Grid,
  Group,
  LoadingOverlay,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { createFileRoute, Link, Outlet } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import type { UserRow } from '../../../../../../src/domains/users/schemas'
import { formatDate, formatDateTime } from '../../../../../../src/i18n/format'
import { toApiError } from '../../../../../lib/api-error'
import { auth } from '../../../../../lib/auth-store'
import { errorMessage } from '../../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../../lib/notify'
import { rest } from '../../../../../lib/rest'
import { queryClient, trpc, trpcClient } from '../../../../../lib/trpc'
import { useSession } from '../../../../../lib/use-auth'
import {
  draftOf,
  Fact,
  type FieldErrors,
  fieldErrorOf,
  invalidateUsers,
  patchOf,
  StatusDot,
  type UserDraft,
  UserAvatar,
  UserFields,
  validateDraft,
} from '../-user-ui'
import { Loading } from '../../../../../components/QueryState'
// The server refuses images over 10 MiB (src-server/storage/images.ts): checked here first.
import { MAX_MEDIA_IMAGE_BYTES as MAX_IMAGE_BYTES } from '../../../../../../src/domains/process/media'

export const Route = createFileRoute('/app/admin/users/$user_key')({
  component: UserDetail,
})

function UserDetail() {
  const { user_key } = Route.useParams()
  const user = useQuery(trpc.users.get.queryOptions({ key: user_key }))

  if (user.isLoading) return <Loading />
  if (!user.data) {
    return (
      <Stack maw={600}>
        <BackLink />
        <Alert color="red" role="alert">
          {user.error ? errorMessage(toApiError(user.error)) : <Trans>Utente non trovato</Trans>}
        </Alert>
      </Stack>
    )
  }
  return (
    <>
      {/* Remounts with a fresh draft when another user is opened. */}
      <UserEditor key={user.data._key} user={user.data} />
      <Outlet />
    </>
  )
}

function BackLink() {
  return (
    <Anchor component={Link} to="/app/admin/users" size="sm">
      ← <Trans>Utenti</Trans>
    </Anchor>
  )
}

function UserEditor({ user }: { user: UserRow }) {
  const { t, i18n } = useLingui()
  const session = useSession()
  const isSelf = session?.user_key === user._key
  const [draft, setDraft] = useState<UserDraft>(() => draftOf(user))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const patch = patchOf(user, draft)
  const dirty = Object.keys(patch).length > 0

  // Fresh data from the server (after a save, a restore ...) replaces an untouched draft.
  const [base, setBase] = useState(user)
  useEffect(() => {
    if (user === base) return
    if (Object.keys(patchOf(base, draft)).length === 0) setDraft(draftOf(user))
    setBase(user)
  }, [user, base, draft])

  function change(next: UserDraft) {
    setDraft(next)
    setErrors((old) => Object.fromEntries(Object.entries(old).filter(([k]) => next[k as keyof UserDraft] === draft[k as keyof UserDraft])))
  }

  async function save(e: React.FormEvent) {
    e.preventDefault()
    setFailure(null)
    const found = validateDraft(draft, i18n)
    setErrors(found)
    // SPEC 5: the update is sent only when something changed, and holds only what changed.
    if (Object.keys(found).length > 0 || !dirty) return
    setSaving(true)
    try {
      const saved = await trpcClient.users.patch.mutate({ key: user._key, patch })
      queryClient.setQueryData(trpc.users.get.queryKey({ key: user._key }), saved)
      setDraft(draftOf(saved))
      setBase(saved)
      await invalidateUsers()
      if (isSelf) await auth.refreshSession()
      notifySuccess(t`Utente aggiornato`)
    } catch (err) {
      const apiError = toApiError(err)
      const fieldError = fieldErrorOf(apiError)
      if (fieldError) setErrors(fieldError)
      else setFailure(errorMessage(apiError))
    } finally {
      setSaving(false)
    }
  }

  async function restore() {
    try {
      const saved = await trpcClient.users.restore.mutate({ key: user._key })
      queryClient.setQueryData(trpc.users.get.queryKey({ key: user._key }), saved)
      await invalidateUsers()
      notifySuccess(t`Utente ripristinato`)
    } catch (err) {
      notifyError(err)
    }
  }

  const fullName = [user.name, user.surname].filter(Boolean).join(' ')

  return (
    <Stack gap="md" maw={1100}>
      <BackLink />
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Group gap="md" wrap="nowrap">
          <Title order={3}>{user.username}</Title>
          {fullName && (
            <Text c="dimmed" size="lg">
              {fullName}
            </Text>
          )}
          {!user.active && (
            <Badge color="gray" variant="filled">
              <Trans>Eliminato</Trans>
            </Badge>
          )}
          {user.active && !user.enabled && (
            <Badge color="gray" variant="light">
              <Trans>Disabilitato</Trans>
            </Badge>
          )}
        </Group>
        <Group gap="sm">
          <Button
            variant="default"
            renderRoot={isSelf ? undefined : (props) => <Link to="/app/admin/users/$user_key/reset-password" params={{ user_key: user._key }} {...props} />}
            disabled={isSelf}
            title={isSelf ? t`Per la tua password usa "Cambia password" nel menu utente` : undefined}
          >
            <Trans>Reimposta password</Trans>
          </Button>
          {user.active ? (
            <Button
              color="red"
              variant="light"
              renderRoot={isSelf ? undefined : (props) => <Link to="/app/admin/users/$user_key/delete" params={{ user_key: user._key }} {...props} />}
              disabled={isSelf}
            >
              <Trans>Elimina</Trans>
            </Button>
          ) : (
            <Button color="teal" onClick={restore}>
              <Trans>Ripristina</Trans>
            </Button>
          )}
        </Group>
      </Group>
      {!user.active && (
        <Alert color="gray" variant="light">
          <Trans>Questo utente è stato eliminato: non compare negli elenchi e non può accedere. I suoi dati restano nello storico; puoi ripristinarlo.</Trans>
        </Alert>
      )}
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Paper withBorder p="lg" radius="md">
            <Stack gap="md" align="stretch">
              <ImagePicker user={user} />
              <Fact label={<Trans>Creato il</Trans>}>{formatDate(user.created_at)}</Fact>
              <Fact label={<Trans>Ultimo accesso</Trans>}>{user.last_login ? formatDateTime(user.last_login) : <Trans>Mai</Trans>}</Fact>
              <Fact label={<Trans>Sessione</Trans>}>
                {user.logged_in ? (
                  <StatusDot color="var(--mantine-color-blue-6)">
                    <Trans>Connesso</Trans>
                  </StatusDot>
                ) : (
                  <Trans>Non connesso</Trans>
                )}
              </Fact>
              <PinFact user={user} />
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Paper withBorder p="lg" radius="md">
            <form onSubmit={save} noValidate>
              <Stack gap="lg">
                <UserFields draft={draft} onChange={change} errors={errors} isSelf={isSelf} showEnabled disabled={saving} />
                {failure && (
                  <Alert color="red" role="alert">
                    {failure}
                  </Alert>
                )}
                <Group justify="flex-end" gap="sm">
                  <Button
                    variant="default"
                    disabled={!dirty || saving}
                    onClick={() => {
                      setDraft(draftOf(user))
                      setErrors({})
                      setFailure(null)
                    }}
                  >
                    <Trans>Annulla modifiche</Trans>
                  </Button>
                  <Button type="submit" disabled={!dirty} loading={saving}>
                    <Trans>Salva</Trans>
                  </Button>
                </Group>
              </Stack>
            </form>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  )
}

/** Whether the user has a signing PIN; an admin clears a forgotten or seen PIN (the user signs with the password until setting a new one). */
function PinFact({ user }: { user: UserRow }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  async function clear() {
    setBusy(true)
    try {
      const saved = await trpcClient.users.clearPin.mutate({ key: user._key })
      queryClient.setQueryData(trpc.users.get.queryKey({ key: user._key }), saved)
      await invalidateUsers()
      notifySuccess(t`PIN cancellato`)
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Fact label={<Trans>PIN di firma</Trans>}>
      {user.has_pin ? (
        <Group gap="xs" justify="space-between">
          <Trans>Impostato</Trans>
          <Button size="compact-xs" variant="light" color="red" onClick={clear} loading={busy}>
            <Trans>Cancella PIN</Trans>
          </Button>
        </Group>
      ) : (
        <Trans>Non impostato</Trans>
      )}
    </Fact>
  )
}

/** The user's picture: picked with FileButton, previewed at once, uploaded by `PUT user/{key}/image`. */
function ImagePicker({ user }: { user: UserRow }) {
  const { t } = useLingui()
  const [preview, setPreview] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview])

  async function upload(file: File | null) {
    if (!file) return
    setError(null)
    if (!file.type.startsWith('image/')) return setError(t`Scegli un'immagine (PNG, JPEG, WebP o GIF)`)
    if (file.size > MAX_IMAGE_BYTES) return setError(t`L'immagine supera i 10 MB`)
    setPreview(URL.createObjectURL(file))
    setUploading(true)
    try {
      const form = new FormData()
      form.set('new_image', file)
      const saved = await rest<UserRow>('PUT', `/user/${user._key}/image`, form)
      queryClient.setQueryData(trpc.users.get.queryKey({ key: user._key }), saved)
      // The stored picture replaces the local preview.
      setPreview(null)
      await invalidateUsers()
      notifySuccess(t`Immagine aggiornata`)
    } catch (err) {
      setPreview(null)
      setError(errorMessage(toApiError(err)))
    } finally {
      setUploading(false)
    }
  }

  return (
    <Stack gap="xs" align="center">
      <div style={{ position: 'relative' }}>
        <LoadingOverlay visible={uploading} loaderProps={{ size: 'sm' }} />
        <UserAvatar user={{ ...user, image_url: preview ?? user.image_url }} size={112} />
      </div>
      <FileButton onChange={upload} accept="image/png,image/jpeg,image/webp,image/gif">
        {(props) => (
          <Button {...props} size="xs" variant="light" loading={uploading}>
            {user.image_url || preview ? <Trans>Cambia immagine</Trans> : <Trans>Carica immagine</Trans>}
          </Button>
        )}
      </FileButton>
      <Text size="xs" c="dimmed" ta="center">
        <Trans>PNG, JPEG, WebP o GIF, al massimo 10 MB</Trans>
      </Text>
      {error && (
        <Text size="xs" c="red" ta="center" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  )
}
