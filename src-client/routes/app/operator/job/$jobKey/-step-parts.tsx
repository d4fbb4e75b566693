import { Trans } from '@lingui/react/macro'
import { Alert, Stack, Text } from '@mantine/core'
import { type RefObject, useLayoutEffect } from 'react'
import type { StepDefinition } from '../../../../../../src/domains/execution/schemas'
import { MediaView } from '../../../../../components/operator/MediaView'
import { useWorkSession } from '../../../../../components/operator/work-session-context'
import { useJobRuntime } from '../../../../../lib/heartbeat'

/**
 * The sticky action bar covers the bottom of the page: the page's scroll padding follows its
 * height, so the browser's own scrolling (a tap, a focus, the next field) stops a field above
 * the bar, never under it; the bar's place at the end of the form keeps the last field reachable.
 */
export function useScrollClearOf(ref: RefObject<HTMLElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const bar = ref.current
    if (!shown || !bar) return
    const root = document.documentElement
    const apply = () => {
      root.style.scrollPaddingBottom = `${bar.offsetHeight + 8}px`
    }
    apply()
    const observer = new ResizeObserver(apply)
    observer.observe(bar)
    return () => {
      observer.disconnect()
      root.style.scrollPaddingBottom = ''
    }
  }, [ref, shown])
}

export function StepBody({ def }: { def: StepDefinition | undefined }) {
  if (!def) {
    return (
      <Text c="dimmed">
        <Trans>La definizione di questo passo non è più nel processo.</Trans>
      </Text>
    )
  }
  return (
    <Stack gap="sm">
      {def.text.trim() && (
        <Text size="lg" style={{ whiteSpace: 'pre-wrap' }} data-testid="step-text">
          {def.text}
        </Text>
      )}
      {def.media.map((m) => (
        <MediaView key={m._key} item={{ name: m.filename, url: m.url, content_type: m.content_type }} height={320} />
      ))}
    </Stack>
  )
}

/**
 * Offline: why the steps of a running job cannot be worked now (a job not running here has the
 * read-only banner). Only while the connection is down: a job closed offline stays
 * 'paused_offline' once back online, and then it is simply paused (the banner says so).
 */
export function WorkHint() {
  const { state } = useWorkSession()
  const { online } = useJobRuntime()
  if (online || (state !== 'offline' && state !== 'paused_offline')) return null
  return (
    <Alert color="red" mb="sm" data-testid="work-hint">
      <Text size="md">
        <Trans>Offline: i passi si potranno confermare quando torna la connessione.</Trans>
      </Text>
    </Alert>
  )
}
