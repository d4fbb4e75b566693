import { Trans, useLingui } from '@lingui/react/macro'
import { Anchor, Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core'
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { PRODUCT_CODE_MAX } from '../../../../../src/domains/products/schemas'
import { UnsavedChangesGuard } from '../../../../components/UnsavedChangesGuard'
import { toApiError } from '../../../../lib/api-error'
import { errorMessage } from '../../../../lib/error-messages'
import { notifyError, notifySuccess } from '../../../../lib/notify'
import { productChanged } from '../../../../lib/products'
import { trpcClient } from '../../../../lib/trpc'

export const Route = createFileRoute('/app/library/product/new')({
  component: NewProduct,
})

const CODE_ERRORS = ['PRODUCT_CODE_REQUIRED', 'PRODUCT_CODE_TAKEN']

/** `new`: code (required, unique) and description; then the new product's home. */
function NewProduct() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const [code, setCode] = useState('')
  const [description, setDescription] = useState('')
  const [codeError, setCodeError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const dirty = code.trim() !== '' || description.trim() !== ''

  async function create(e: React.FormEvent) {
    e.preventDefault()
    if (!code.trim()) {
      setCodeError(t`Il codice è obbligatorio`)
      return
    }
    setSaving(true)
    try {
      const row = await trpcClient.products.create.mutate({ code, description })
      await productChanged(row)
      notifySuccess(t`Prodotto creato`)
      await navigate({ to: '/app/library/product/$product_key/home', params: { product_key: row._key }, ignoreBlocker: true })
    } catch (err) {
      const error = toApiError(err)
      if (CODE_ERRORS.includes(error.code)) setCodeError(errorMessage(error))
      else notifyError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Stack maw={640}>
      <Anchor component={Link} to="/app/library/product" size="sm">
        ← <Trans>Prodotti</Trans>
      </Anchor>
      <Title order={2}>
        <Trans>Nuovo prodotto</Trans>
      </Title>
      <form onSubmit={create} noValidate>
        <UnsavedChangesGuard dirty={dirty && !saving} />
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <TextInput
              label={t`Codice`}
              withAsterisk
              data-autofocus
              autoFocus
              maxLength={PRODUCT_CODE_MAX}
              value={code}
              onChange={(e) => {
                setCode(e.currentTarget.value)
                setCodeError(null)
              }}
              error={codeError}
              maw={320}
            />
            <TextInput label={t`Descrizione`} maxLength={500} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
            <Group justify="flex-end">
              <Button variant="default" component={Link} to="/app/library/product">
                <Trans>Annulla</Trans>
              </Button>
              <Button type="submit" loading={saving}>
                <Trans>Crea prodotto</Trans>
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
    </Stack>
  )
}
