import { Trans, useLingui } from '@lingui/react/macro'
import { Stack, Text } from '@mantine/core'
import type { SignatureView } from '../../../src/domains/signatures/schemas'
import { formatDateTime } from '../../../src/i18n/format'
import { SIGNATURE_MEANING_LABELS } from '../../lib/library-labels'

/**
 * The signatures given on a record, under it (issue 22): "Firmato da Mario Rossi · 2026/11/28
 * 14:03 · Verificato", and a warning when what was signed changed afterwards.
 */
export function SignatureLines({ signatures }: { signatures: readonly SignatureView[] }) {
  const { i18n } = useLingui()
  if (signatures.length === 0) return null
  return (
    <Stack gap={2} mt={4} data-testid="signatures">
      {signatures.map((s) => {
        const name = s.full_name
        const when = formatDateTime(s.signed_at)
        const meaning = i18n._(SIGNATURE_MEANING_LABELS[s.meaning])
        return (
          <div key={s._key} data-testid="signature-line">
            <Text size="sm" fw={500} c={s.valid ? 'indigo' : 'dimmed'} td={s.valid ? undefined : 'line-through'}>
              {s.role === 'second_signer' ? (
                <Trans>
                  Firmato da {name} · {when} · {meaning} · secondo firmatario
                </Trans>
              ) : (
                <Trans>
                  Firmato da {name} · {when} · {meaning}
                </Trans>
              )}
            </Text>
            {!s.valid && (
              <Text size="sm" fw={700} c="red" data-testid="signature-invalid">
                <Trans>Firma non più valida: i dati sono cambiati dopo la firma</Trans>
              </Text>
            )}
          </div>
        )
      })}
    </Stack>
  )
}
