import { Trans } from '@lingui/react/macro'
import { Alert, Stack, Text } from '@mantine/core'

/**
 * Said in place of a list filtered by a code that matches nothing: the list would otherwise show
 * everything, unfiltered, as if it were what that position or product holds.
 */
export function UnknownFilter({ position, product, testid }: { position: string | null; product: string | null; testid: string }) {
  return (
    <Alert color="orange" data-testid={testid}>
      <Stack gap={4}>
        {position && (
          <Text size="sm">
            <Trans>Nessuna posizione ha il codice «{position}»: non si mostra nulla finché il filtro non è corretto o vuoto.</Trans>
          </Text>
        )}
        {product && (
          <Text size="sm">
            <Trans>Nessun prodotto ha il codice «{product}»: non si mostra nulla finché il filtro non è corretto o vuoto.</Trans>
          </Text>
        )}
      </Stack>
    </Alert>
  )
}
