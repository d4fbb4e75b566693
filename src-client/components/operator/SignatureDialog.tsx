import { i18n } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Box, Button, Group, Modal, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { type FormEvent, useEffect, useState } from 'react'
import type { FieldDefinition, FormDataEntry, FormValue } from '../../../src/domains/execution/schemas'
import type { StepSignature } from '../../../src/domains/process/steps'
import type { SignatureInput } from '../../../src/domains/signatures/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { SIGNATURE_MEANING_LABELS } from '../../lib/library-labels'
import { BACKGROUND, trpc } from '../../lib/trpc'
import { useSession } from '../../lib/use-auth'
import { ManifestRow, SignerFields, useSignerCredentials } from '../signatures/SignerFields'

/** What the operator signs, as the dialog shows it (21 CFR 11.50: name, date and time, meaning). */
export type SignatureManifest = {
  stepTitle: string
  stepPosition: number
  batchNumber: number
  workOrderCode: string
  phaseName: string
  values: { name: string; value: string }[]
}

/**
 * The signature dialog of a step that must be signed (issue 22): the manifest (full name, the
 * server's date and time, the meaning, what is signed) and the operator's password, or PIN
 * where the plant allows it and the operator has one; when the step asks for a second signer,
 * their username and password, or their badge scan and PIN, in the same dialog, so the operator
 * stays signed in (the fields: components/signatures/SignerFields.tsx, shared with the
 * back-office signed actions). A refusal shows here, in the user's language, and the dialog
 * stays. The refusal and the actions sit in a footer that stays in view while the rest scrolls,
 * so "Firma e completa" is on screen at 1024x768 whatever the manifest's length.
 */
export function SignatureDialog(props: {
  jobKey: string
  requirement: StepSignature
  manifest: SignatureManifest
  busy: boolean
  error: string | null
  onCancel: () => void
  onSign: (signature: SignatureInput) => void
}) {
  const { t, i18n } = useLingui()
  const session = useSession()
  const { requirement, manifest } = props
  const credentials = useSignerCredentials(requirement.second_signer)
  const serverNow = useServerNow(props.jobKey)
  // A refused attempt clears the passwords and PINs typed (never kept longer than needed).
  useEffect(() => {
    if (props.error) credentials.clearSecrets()
  }, [props.error])

  const fullName = session ? `${session.name} ${session.surname}`.trim() || session.username : ''
  const meaning = i18n._(SIGNATURE_MEANING_LABELS[requirement.meaning])

  function submit(e: FormEvent) {
    e.preventDefault()
    if (!credentials.ready || props.busy) return
    props.onSign(credentials.input())
  }

  return (
    <Modal
      opened
      onClose={props.onCancel}
      closeOnClickOutside={false}
      centered
      size="xl"
      yOffset="3dvh"
      // The footer below sticks to the bottom of the scrolling content; a focused field is never left under it.
      styles={{ content: { scrollPaddingBottom: '10rem' }, body: { paddingBottom: 0 } }}
      title={
        <Text fw={700} size="xl">
          <Trans>Firma elettronica</Trans>
        </Text>
      }
      data-testid="signature-dialog"
    >
      <form onSubmit={submit}>
        <Stack gap="xs">
          <Table withRowBorders={false} verticalSpacing={2} data-testid="signature-manifest">
            <Table.Tbody>
              <ManifestRow label={t`Firmatario`} value={fullName} />
              <ManifestRow label={t`Data e ora del server`} value={serverNow ? formatDateTime(serverNow) : '…'} />
              <ManifestRow label={t`Significato`} value={meaning} />
              <ManifestRow
                label={t`Cosa firmi`}
                value={t`Passo ${manifest.stepPosition}: ${manifest.stepTitle} · lotto n. ${manifest.batchNumber} · ${manifest.phaseName} · ${manifest.workOrderCode}`}
              />
              {manifest.values.map((v) => (
                <ManifestRow key={v.name} label={v.name} value={v.value} />
              ))}
            </Table.Tbody>
          </Table>
          <SignerFields state={credentials} size="lg" autoFocus />
        </Stack>
        <Box
          data-testid="signature-footer"
          pt="sm"
          pb="md"
          mt="sm"
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 2,
            background: 'var(--mes-surface-2)',
            borderTop: '1px solid var(--mantine-color-default-border)',
          }}
        >
          {props.error && (
            <Alert color="red" variant="light" py="xs" mb="sm" data-testid="signature-error">
              {props.error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button size="lg" variant="default" onClick={props.onCancel} disabled={props.busy}>
              <Trans>Annulla</Trans>
            </Button>
            <Button size="lg" type="submit" color="green" loading={props.busy} disabled={!credentials.ready}>
              <Trans>Firma e completa</Trans>
            </Button>
          </Group>
        </Box>
      </form>
    </Modal>
  )
}

/**
 * The server's clock, ticking: the work session is read again when the dialog opens and its
 * server_time moves on by the time passed since. The signature itself is stamped by the server.
 */
function useServerNow(jobKey: string): number | null {
  const view = useQuery({ ...trpc.execution.workSession.queryOptions({ job_key: jobKey }, { trpc: BACKGROUND }), refetchOnMount: 'always' })
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [])
  if (!view.data) return null
  return view.data.timer.server_time + Math.max(0, now - view.dataUpdatedAt)
}

/** The answers of a form step as the manifest lists them: field name and value as text. */
export function manifestValues(fields: readonly FieldDefinition[], entries: readonly FormDataEntry[]): { name: string; value: string }[] {
  const byKey = new Map(entries.map((e) => [e.field_key, e.value]))
  const text = (value: FormValue | undefined): string => {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '—'
    if (value === true) return i18n._(msg`Sì`)
    if (value === false) return i18n._(msg`No`)
    if (Array.isArray(value)) return value.join(', ')
    // Decimal numbers read with the user's separator, as they were typed.
    if (typeof value === 'number') return i18n.locale === 'it' ? String(value).replace('.', ',') : String(value)
    return value
  }
  return fields.map((f) => ({ name: f.name, value: text(byKey.get(f._key)) }))
}
