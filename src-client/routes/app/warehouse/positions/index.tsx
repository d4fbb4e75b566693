import { Trans, useLingui } from '@lingui/react/macro'
import { Badge, Button, Stack, Text } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { createFileRoute, Link } from '@tanstack/react-router'
import { useState } from 'react'
import { POSITION_SEARCH_MIN } from '../../../../../src/domains/positions/schemas'
import { LoadError, Loading } from '../../../../components/QueryState'
import { PositionsTable } from '../../../../components/warehouse/PositionsTable'
import { trpc } from '../../../../lib/trpc'
import { useCanEditWarehouse } from '../../../../components/warehouse/access'
import { ListDescription, ListHeader } from '../../../../components/warehouse/ListFrame'
import { CameraTextInput } from '../../../../components/scan/CameraTextInput'

export const Route = createFileRoute('/app/warehouse/positions/')({
  component: PositionsPage,
})

/** The top of the positions tree, or the positions found (SPEC 5: from 3 characters, the first 100). */
function PositionsPage() {
  const { t } = useLingui()
  const canEdit = useCanEditWarehouse()
  const [typed, setTyped] = useState('')
  const [debounced] = useDebouncedValue(typed.trim(), 250)
  const searching = debounced.length >= POSITION_SEARCH_MIN
  const tooShort = typed.trim().length > 0 && typed.trim().length < POSITION_SEARCH_MIN
  const list = useQuery({ ...trpc.positions.list.queryOptions(searching ? { search: debounced } : { root: true }), placeholderData: keepPreviousData, staleTime: 0 })
  return (
    <Stack gap="md">
      <ListHeader
        title={<Trans>Posizioni</Trans>}
        subtitle={
          <ListDescription>
            {searching ? <Trans>Posizioni trovate (le prime 100).</Trans> : <Trans>Le posizioni di primo livello: apri una posizione per vedere cosa contiene.</Trans>}
          </ListDescription>
        }
        actions={
          canEdit && (
            <Button renderRoot={(p) => <Link {...p} to="/app/warehouse/positions/new" />} data-testid="position-new">
              <Trans>Nuova posizione</Trans>
            </Button>
          )
        }
      />
      <CameraTextInput
        type="search"
        label={t`Cerca posizione`}
        placeholder={t`Codice o descrizione`}
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
        description={tooShort ? t`Scrivi almeno ${POSITION_SEARCH_MIN} caratteri` : undefined}
        w={320}
        maw="100%"
        data-testid="positions-search"
      />
      {list.isPending ? (
        <Loading />
      ) : list.isError ? (
        <LoadError error={list.error} />
      ) : list.data.rows.length === 0 ? (
        <Badge variant="light" color="gray" size="lg">
          <Trans>Nessuna posizione</Trans>
        </Badge>
      ) : (
        <>
          <PositionsTable rows={list.data.rows} />
          {list.data.more && (
            <Text size="sm" c="dimmed">
              <Trans>Sono mostrate le prime 100: scrivi di più per restringere.</Trans>
            </Text>
          )}
        </>
      )}
    </Stack>
  )
}
