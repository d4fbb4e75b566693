import { Trans, useLingui } from '@lingui/react/macro'
import { Button, Group, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core'
import { useState } from 'react'
import { POSITION_CODE_MAX, POSITION_DESCRIPTION_MAX, type PositionRow } from '../../../src/domains/positions/schemas'
import type { Picked } from './scan-group'
import { PositionScanInput } from './ScanInput'
import { useScanGroup } from './scan-group'

export type PositionDraft = { code: string; description: string; parent: Picked | null; owned: boolean; fixed: boolean; available: boolean; disposable: boolean }

export const draftOf = (p?: PositionRow): PositionDraft => ({
  code: p?.code ?? '',
  description: p?.description ?? '',
  parent: null,
  owned: p?.owned ?? true,
  fixed: p?.fixed ?? true,
  available: p?.available ?? true,
  disposable: p?.disposable ?? false,
})

/** Code, description, flags and (for a new one) the position it goes inside. */
export function PositionForm({
  initial,
  withParent,
  saving,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: PositionDraft
  withParent: boolean
  saving: boolean
  submitLabel: React.ReactNode
  onSubmit: (d: PositionDraft) => void
  onCancel?: () => void
}) {
  const { t } = useLingui()
  const [d, setD] = useState(initial)
  const [tried, setTried] = useState(false)
  const set = <K extends keyof PositionDraft>(k: K, v: PositionDraft[K]) => setD((x) => ({ ...x, [k]: v }))
  const scans = useScanGroup()
  const codeMissing = !d.code.trim()
  return (
    <form
      onSubmit={async (e) => {
        e.preventDefault()
        setTried(true)
        const picked = await scans.settle()
        if (!codeMissing && picked) onSubmit(withParent ? { ...d, parent: picked.parent ?? null } : d)
      }}
      data-testid="position-form"
    >
      <Stack maw={760}>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t`Codice`}
            withAsterisk
            maxLength={POSITION_CODE_MAX}
            value={d.code}
            onChange={(e) => set('code', e.currentTarget.value)}
            error={tried && codeMissing ? t`Il codice della posizione è obbligatorio` : undefined}
            data-testid="position-code"
          />
          <TextInput label={t`Descrizione`} maxLength={POSITION_DESCRIPTION_MAX} value={d.description} onChange={(e) => set('description', e.currentTarget.value)} data-testid="position-description" />
          {withParent && (
            <PositionScanInput
              label={t`Dentro la posizione`}
              placeholder={t`Vuoto: primo livello`}
              value={d.parent}
              onChange={(p) => set('parent', p)}
              group={scans}
              name="parent"
              data-testid="position-parent"
            />
          )}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Switch label={t`Di proprietà`} description={t`Un luogo dell'azienda (non di un fornitore o cliente)`} checked={d.owned} onChange={(e) => set('owned', e.currentTarget.checked)} />
          <Switch label={t`Fissa`} description={t`Un luogo fisso, non un contenitore che si sposta (pallet)`} checked={d.fixed} onChange={(e) => set('fixed', e.currentTarget.checked)} />
          <Switch label={t`Disponibile`} description={t`Il materiale che contiene si può usare`} checked={d.available} onChange={(e) => set('available', e.currentTarget.checked)} />
          <Switch label={t`A perdere`} description={t`Un contenitore che si butta quando è vuoto`} checked={d.disposable} onChange={(e) => set('disposable', e.currentTarget.checked)} />
        </SimpleGrid>
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              <Trans>Annulla</Trans>
            </Button>
          )}
          <Button type="submit" loading={saving} data-testid="position-save">
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  )
}
