import { useLingui } from '@lingui/react/macro'
import { TextInput } from '@mantine/core'
import { JOB_REASON_MAX } from '../../../src/domains/jobs/schemas'

/**
 * Why production pauses or reassigns a job (optional): the operator reads it on the job, with
 * who did it and when (issue 26). As long as the server takes (JOB_REASON_MAX).
 */
export function JobReasonInput({ value, onChange, placeholder, autoFocus }: { value: string; onChange: (v: string) => void; placeholder?: string; autoFocus?: boolean }) {
  const { t } = useLingui()
  return (
    <TextInput
      label={t`Motivo (facoltativo)`}
      description={t`L'operatore lo legge sul job, con il tuo nome e l'ora.`}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      maxLength={JOB_REASON_MAX}
      data-autofocus={autoFocus || undefined}
      data-testid="job-reason"
    />
  )
}
