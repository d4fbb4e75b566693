import { Trans, useLingui } from '@lingui/react/macro'
import { ActionIcon, Anchor, Box, Button, FileButton, Group, Image, Modal, Paper, Stack, Switch, Table, Text, Title, Tooltip } from '@mantine/core'
import { type ReactNode, useState } from 'react'
import { DOC_ACCEPT, MAX_DOC_BYTES } from '../../../src/domains/products/files'
import { formatDateTime } from '../../../src/i18n/format'
import { ApiError, toApiError } from '../../lib/api-error'
import { formatBytes } from '../../lib/media'
import { notifyError, notifySuccess } from '../../lib/notify'
import { type Product, productChanged, uploadProductDoc, uploadProductImage } from '../../lib/products'
import { trpcClient } from '../../lib/trpc'
// The server refuses images over 10 MiB (src-server/storage/images.ts): checked here first.
import { MAX_MEDIA_IMAGE_BYTES as MAX_IMAGE_BYTES } from '../../../src/domains/process/media'

const IMAGE_ACCEPT = 'image/png,image/jpeg,image/webp,image/gif'

export function Card({ title, action, children, testId }: { title: ReactNode; action?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder p="md" radius="md" data-testid={testId}>
      <Group justify="space-between" mb="sm" wrap="nowrap" gap="xs">
        <Title order={4}>{title}</Title>
        {action}
      </Group>
      {children}
    </Paper>
  )
}

/** A question before an action that cannot be undone in one click. */
export function Confirm(props: { opened: boolean; title: ReactNode; children: ReactNode; confirmLabel: ReactNode; color?: string; busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={<Text fw={600}>{props.title}</Text>} centered>
      <Stack>
        <Text size="sm">{props.children}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            <Trans>Annulla</Trans>
          </Button>
          <Button color={props.color ?? 'red'} onClick={props.onConfirm} loading={props.busy}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  )
}

/** The product image: preview, upload or replace (`PUT product/{key}/image`), remove. */
export function ImageCard({ product, readOnly }: { product: Product; readOnly: boolean }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [confirm, setConfirm] = useState(false)

  async function upload(file: File | null) {
    if (!file) return
    if (file.size > MAX_IMAGE_BYTES) return notifyError(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'image too large'))
    setBusy(true)
    try {
      await productChanged(await uploadProductImage(product._key, file))
      notifySuccess(t`Immagine aggiornata`)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    setBusy(true)
    try {
      await productChanged(await trpcClient.products.removeImage.mutate({ key: product._key }))
      setConfirm(false)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={<Trans>Immagine</Trans>} testId="image-card">
      {product.image_url ? (
        <Anchor href={product.image_url} target="_blank" rel="noreferrer">
          <Image src={product.image_url} alt={t`Immagine di ${product.code}`} h={180} fit="contain" radius="sm" bg="var(--mes-surface-1, #f1f3f5)" />
        </Anchor>
      ) : (
        <Box h={120} style={{ display: 'grid', placeItems: 'center', borderRadius: 6, border: '1px dashed var(--mantine-color-default-border)' }}>
          <Text size="sm" c="dimmed">
            <Trans>Nessuna immagine</Trans>
          </Text>
        </Box>
      )}
      {!readOnly && (
        <Group mt="sm" gap="xs">
          <FileButton onChange={(f) => void upload(f)} accept={IMAGE_ACCEPT}>
            {(p) => (
              <Button {...p} size="compact-sm" variant="default" loading={busy}>
                {product.image_url ? <Trans>Sostituisci</Trans> : <Trans>Carica immagine</Trans>}
              </Button>
            )}
          </FileButton>
          {product.image_url && (
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => setConfirm(true)} disabled={busy}>
              <Trans>Rimuovi</Trans>
            </Button>
          )}
        </Group>
      )}
      <Text size="xs" c="dimmed" mt={6}>
        <Trans>PNG, JPEG, WebP o GIF, al massimo 10 MB</Trans>
      </Text>
      <Confirm
        opened={confirm}
        title={<Trans>Rimuovere l'immagine?</Trans>}
        confirmLabel={<Trans>Rimuovi</Trans>}
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setConfirm(false)}
      >
        <Trans>L'immagine del prodotto {product.code} sarà eliminata.</Trans>
      </Confirm>
    </Card>
  )
}

/** Active / inactive (a switch), move to the trash / restore (SPEC 4 Product). */
export function StateCard({ product, disabled }: { product: Product; disabled?: boolean }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [confirmTrash, setConfirmTrash] = useState(false)

  async function patch(p: { active?: boolean; trash?: boolean }, message: string) {
    setBusy(true)
    try {
      await productChanged(await trpcClient.products.setState.mutate({ key: product._key, patch: p }))
      notifySuccess(message)
      setConfirmTrash(false)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={<Trans>Stato</Trans>} testId="state-card">
      {product.trash ? (
        <Stack gap="xs">
          <Text size="sm">
            <Trans>Il prodotto è nel cestino: non si può modificare né usare.</Trans>
          </Text>
          <Button onClick={() => void patch({ trash: false }, t`Prodotto ripristinato`)} loading={busy} w="fit-content">
            <Trans>Ripristina dal cestino</Trans>
          </Button>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Switch
            label={t`Attivo`}
            description={product.active ? t`Si può usare in nuovi ordini di lavoro` : t`Non attivo: non compare tra i prodotti attivi`}
            checked={product.active}
            disabled={busy || disabled}
            onChange={(e) => void patch({ active: e.currentTarget.checked }, e.currentTarget.checked ? t`Prodotto riattivato` : t`Prodotto disattivato`)}
          />
          <Button variant="subtle" color="red" size="compact-sm" w="fit-content" onClick={() => setConfirmTrash(true)} disabled={busy || disabled}>
            <Trans>Sposta nel cestino</Trans>
          </Button>
        </Stack>
      )}
      <Confirm
        opened={confirmTrash}
        title={<Trans>Spostare nel cestino?</Trans>}
        confirmLabel={<Trans>Sposta nel cestino</Trans>}
        busy={busy}
        onConfirm={() => void patch({ trash: true }, t`Prodotto spostato nel cestino`)}
        onCancel={() => setConfirmTrash(false)}
      >
        <Trans>Il prodotto {product.code} non comparirà più negli elenchi; si potrà ripristinare dal cestino.</Trans>
      </Confirm>
    </Card>
  )
}

const extOf = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toUpperCase() : '')

/**
 * Documents: open, upload (`POST product/{key}/doc`), delete. A document with the name of an
 * existing one asks before replacing it (SPEC 5).
 */
export function DocumentsCard({ product, readOnly }: { product: Product; readOnly: boolean }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const [replace, setReplace] = useState<{ file: File; name: string; rest: File[] } | null>(null)
  const [remove, setRemove] = useState<string | null>(null)

  /** Uploads one by one; a name already there stops and asks (the rest continues after the answer). */
  async function upload(files: File[], replacing = false) {
    setBusy(true)
    try {
      for (const [i, file] of files.entries()) {
        if (file.size > MAX_DOC_BYTES) {
          notifyError(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'file too large'))
          continue
        }
        try {
          await productChanged(await uploadProductDoc(product._key, file, replacing && i === 0))
          notifySuccess(replacing && i === 0 ? t`Documento sostituito: ${file.name}` : t`Documento caricato: ${file.name}`)
        } catch (e) {
          const error = toApiError(e)
          if (error.code === 'DOC_EXISTS') {
            setReplace({ file, name: String(error.extra.name ?? file.name), rest: files.slice(i + 1) })
            return
          }
          notifyError(e)
        }
      }
    } finally {
      setBusy(false)
    }
  }

  async function confirmRemove(name: string) {
    setBusy(true)
    try {
      await productChanged(await trpcClient.products.removeDoc.mutate({ key: product._key, name }))
      notifySuccess(t`Documento eliminato`)
      setRemove(null)
    } catch (e) {
      notifyError(e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card
      title={<Trans>Documenti</Trans>}
      testId="docs-card"
      action={
        !readOnly && (
          <FileButton onChange={(f) => void upload(f)} accept={DOC_ACCEPT} multiple>
            {(p) => (
              <Button {...p} size="compact-sm" variant="default" loading={busy}>
                <Trans>Carica documento</Trans>
              </Button>
            )}
          </FileButton>
        )
      }
    >
      {product.docs.length === 0 ? (
        <Text size="sm" c="dimmed">
          <Trans>Nessun documento.</Trans>
        </Text>
      ) : (
        <Table verticalSpacing={6} highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>
                <Trans>Nome</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Tipo</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Dimensione</Trans>
              </Table.Th>
              <Table.Th>
                <Trans>Caricato il</Trans>
              </Table.Th>
              <Table.Th w={40} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {product.docs.map((d) => (
              <Table.Tr key={d.name} data-testid="doc-row">
                <Table.Td>
                  <Anchor href={d.url} target="_blank" rel="noreferrer" size="sm" fw={500}>
                    {d.name}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {extOf(d.name)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatBytes(d.size)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(d.uploaded_at)}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {!readOnly && (
                    <Tooltip label={t`Elimina ${d.name}`}>
                      <ActionIcon variant="subtle" color="red" aria-label={t`Elimina ${d.name}`} onClick={() => setRemove(d.name)}>
                        ×
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!readOnly && (
        <Text size="xs" c="dimmed" mt={6}>
          <Trans>PDF, immagini, Word/Excel/PowerPoint, OpenDocument, TXT o CSV, al massimo 25 MB</Trans>
        </Text>
      )}
      <Confirm
        opened={replace !== null}
        title={<Trans>Documento già presente</Trans>}
        confirmLabel={<Trans>Sostituisci</Trans>}
        color="orange"
        busy={busy}
        onConfirm={() => {
          const r = replace
          setReplace(null)
          if (r) void upload([r.file, ...r.rest], true)
        }}
        onCancel={() => {
          const r = replace
          setReplace(null)
          if (r?.rest.length) void upload(r.rest)
        }}
      >
        <Trans>Esiste già un documento chiamato «{replace?.name}». Sostituirlo con il file scelto?</Trans>
      </Confirm>
      <Confirm
        opened={remove !== null}
        title={<Trans>Eliminare il documento?</Trans>}
        confirmLabel={<Trans>Elimina</Trans>}
        busy={busy}
        onConfirm={() => remove && void confirmRemove(remove)}
        onCancel={() => setRemove(null)}
      >
        <Trans>Il documento «{remove}» sarà eliminato definitivamente.</Trans>
      </Confirm>
    </Card>
  )
}
