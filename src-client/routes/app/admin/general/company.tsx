import { Trans, useLingui } from '@lingui/react/macro'
import { Alert, Box, Button, Center, FileButton, Group, Image, Stack, Text, TextInput } from '@mantine/core'
import { createFileRoute } from '@tanstack/react-router'
import { useEffect, useRef, useState } from 'react'
import { COMPANY_NAME_MAX, LOGO_FIELD, OPERATOR_HOURLY_COST_MAX, type SettingsRow } from '../../../../../src/domains/settings/schemas'
import { type NumberRules, readNumberText } from '../../../../../src/i18n/number-text'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { rest } from '../../../../lib/rest'
import { trpcClient } from '../../../../lib/trpc'
import { NumberTextInput, toNumberText } from '../../../../components/NumberTextInput'
import { Loading } from '../../../../components/QueryState'
import { isNotSquare, NotSquareNotice, useImageShape } from './-logo-shape'
import { FormActions, Section, sameValues, storeSettings, useSettings } from './-settings-ui'

export const Route = createFileRoute('/app/admin/general/company')({
  component: CompanyTab,
})

function CompanyTab() {
  const { data } = useSettings()
  if (!data) return <Loading />
  return (
    <Stack maw={760} gap="lg">
      <CompanyForm key={`${data.company_name}|${data.operator_hourly_cost}`} settings={data} />
      <LogoSection logoUrl={data.logo_url} />
    </Stack>
  )
}

/** The cost as typed (NumberTextInput); SPEC 5: 0 or more. */
type Draft = { company_name: string; operator_hourly_cost: string }
const COST_RULES: NumberRules = { min: 0, max: OPERATOR_HOURLY_COST_MAX }

function CompanyForm({ settings }: { settings: SettingsRow }) {
  const { t } = useLingui()
  const initial: Draft = { company_name: settings.company_name, operator_hourly_cost: toNumberText(settings.operator_hourly_cost ?? 0) }
  const [draft, setDraft] = useState<Draft>(initial)
  const [saving, setSaving] = useState(false)
  const dirty = !sameValues(draft, initial)
  const cost = readNumberText(draft.operator_hourly_cost, { ...COST_RULES, required: true })
  // The field itself says why typed text is refused; only a missing cost needs saying here.
  const costMissing = !cost.ok && cost.problem === 'required'

  async function save(e: React.FormEvent) {
    e.preventDefault()
    if (!cost.ok || cost.value === null) return
    setSaving(true)
    try {
      const row = await trpcClient.settings.update.mutate({ company_name: draft.company_name.trim(), operator_hourly_cost: cost.value })
      storeSettings(row)
      notifySuccess(t`Impostazioni salvate`)
    } catch (err) {
      notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={save}>
      <Section title={<Trans>Dati aziendali</Trans>}>
        <TextInput
          label={t`Ragione sociale`}
          name="company_name"
          maxLength={COMPANY_NAME_MAX}
          value={draft.company_name}
          onChange={(e) => setDraft({ ...draft, company_name: e.currentTarget.value })}
        />
        <NumberTextInput
          label={t`Costo orario operatore`}
          description={t`Costo predefinito di un'ora di lavoro, per gli operatori senza un costo orario proprio`}
          name="operator_hourly_cost"
          unit="€/h"
          {...COST_RULES}
          styles={{ wrapper: { maxWidth: 260 } }}
          value={draft.operator_hourly_cost}
          onChange={(text) => setDraft({ ...draft, operator_hourly_cost: text })}
          error={dirty && costMissing ? t`Inserisci il costo orario` : null}
        />
        <FormActions dirty={dirty} saving={saving} onCancel={() => setDraft(initial)} />
      </Section>
    </form>
  )
}

/** SPEC 5: the logo must be a 1:1 image. The server decodes it to check; this shows its answer. */
function LogoSection({ logoUrl }: { logoUrl: string | null }) {
  const { t } = useLingui()
  const [chosen, setChosen] = useState<File | null>(null)
  const [preview, setPreview] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const resetRef = useRef<() => void>(null)

  useEffect(() => {
    if (!chosen) return setPreview(null)
    const url = URL.createObjectURL(chosen)
    setPreview(url)
    return () => URL.revokeObjectURL(url)
  }, [chosen])

  function choose(file: File | null) {
    setError(null)
    setChosen(file)
  }

  function discard() {
    setChosen(null)
    setError(null)
    resetRef.current?.()
  }

  async function upload() {
    if (!chosen) return
    setBusy(true)
    setError(null)
    try {
      const form = new FormData()
      form.append(LOGO_FIELD, chosen)
      storeSettings(await rest<SettingsRow>('PUT', '/settings/logo', form))
      discard()
      notifySuccess(t`Logo aggiornato`)
    } catch (err) {
      setError(errorMessage(toApiError(err)))
    } finally {
      setBusy(false)
    }
  }

  async function remove() {
    setBusy(true)
    try {
      storeSettings(await trpcClient.settings.removeLogo.mutate())
      notifySuccess(t`Logo rimosso`)
    } catch (err) {
      notifyError(err)
    } finally {
      setBusy(false)
    }
  }

  const shape = useImageShape(preview)
  const refused = isNotSquare(shape)
  const shown = preview ?? logoUrl
  return (
    <Section
      title={<Trans>Logo</Trans>}
      description={<Trans>Un'immagine quadrata (proporzioni 1:1) in formato PNG, JPEG, WebP o GIF, al massimo 10 MB.</Trans>}
    >
      <Group align="flex-start" gap="xl" wrap="nowrap">
        <Box
          w={144}
          h={144}
          style={{
            flex: 'none',
            border: `1px ${shown ? 'solid' : 'dashed'} var(--mantine-color-default-border)`,
            borderRadius: 'var(--mantine-radius-md)',
            overflow: 'hidden',
            background: 'var(--mes-surface-2)',
          }}
        >
          {shown ? (
            <Image src={shown} alt={t`Logo aziendale`} w="100%" h="100%" fit="contain" data-testid="logo-preview" />
          ) : (
            <Center h="100%">
              <Text size="sm" c="dimmed" ta="center" px="xs">
                <Trans>Nessun logo</Trans>
              </Text>
            </Center>
          )}
        </Box>
        <Stack gap="sm" style={{ flex: 1 }}>
          {chosen ? (
            <>
              <PreviewText filename={chosen.name} />
              {shape?.state === 'read' && refused && <NotSquareNotice width={shape.width} height={shape.height} />}
              <Group gap="sm">
                <Button onClick={upload} loading={busy} disabled={refused || shape?.state === 'reading'}>
                  <Trans>Carica logo</Trans>
                </Button>
                <Button variant="default" onClick={discard} disabled={busy}>
                  <Trans>Annulla</Trans>
                </Button>
              </Group>
            </>
          ) : (
            <Group gap="sm">
              <FileButton onChange={choose} accept="image/png,image/jpeg,image/webp,image/gif" resetRef={resetRef}>
                {(props) => (
                  <Button {...props} variant={logoUrl ? 'default' : 'filled'}>
                    {logoUrl ? <Trans>Sostituisci logo</Trans> : <Trans>Scegli un'immagine</Trans>}
                  </Button>
                )}
              </FileButton>
              {logoUrl && (
                <Button variant="subtle" color="red" onClick={remove} loading={busy}>
                  <Trans>Rimuovi logo</Trans>
                </Button>
              )}
            </Group>
          )}
          {error && (
            <Alert color="red" role="alert" title={<Trans>Logo non accettato</Trans>}>
              {error}
            </Alert>
          )}
        </Stack>
      </Group>
    </Section>
  )
}

function PreviewText({ filename }: { filename: string }) {
  return (
    <Text size="sm">
      <Trans>Anteprima di {filename}: carica l'immagine per usarla come logo.</Trans>
    </Text>
  )
}
