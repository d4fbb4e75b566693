import { useLingui } from '@lingui/react/macro'
import { type ComboboxItemGroup, Select, type SelectProps } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import type { OperatorRow } from '../../../src/domains/jobs/schemas'
import { trpc } from '../../lib/trpc'
import { displayNameOf } from '../../lib/user-names'

export const operatorName = displayNameOf

/** Eligible operators (enabled, operator permission), cached for every select on the page. */
export function useOperators() {
  return useQuery({ ...trpc.jobs.operators.queryOptions({}), staleTime: 60_000 })
}

/** The eligible operators as plain select options, by name. */
export function useOperatorOptions(): { value: string; label: string }[] {
  const { data } = useOperators()
  return useMemo(() => (data ?? []).map((o) => ({ value: o._key, label: operatorName(o) })), [data])
}

type Props = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null
  onChange: (key: string | null) => void
  /** The job's department: its operators are listed first. */
  departmentKey?: string | null
  /** A current operator who is no longer eligible still shows by name. */
  currentName?: string | null
}

/** Operators grouped as "of this department" first, then the others. */
export function OperatorSelect({ value, onChange, departmentKey, currentName, ...rest }: Props) {
  const { t } = useLingui()
  const operators = useOperators()
  const departments = useQuery({ ...trpc.departments.list.queryOptions(), staleTime: 60_000 })
  const data = useMemo<ComboboxItemGroup<{ value: string; label: string }>[]>(() => {
    const list = operators.data ?? []
    const item = (o: OperatorRow) => ({ value: o._key, label: operatorName(o) })
    const deptName = departments.data?.find((d) => d._key === departmentKey)?.name
    const groups: ComboboxItemGroup<{ value: string; label: string }>[] = []
    if (departmentKey) {
      const own = list.filter((o) => o.department_key === departmentKey)
      if (own.length) groups.push({ group: deptName ? t`Reparto ${deptName}` : t`Reparto del job`, items: own.map(item) })
      const others = list.filter((o) => o.department_key !== departmentKey)
      if (others.length) groups.push({ group: t`Altri operatori`, items: others.map(item) })
    } else groups.push({ group: t`Operatori`, items: list.map(item) })
    if (value && !list.some((o) => o._key === value)) groups.push({ group: t`Non più disponibile`, items: [{ value, label: currentName ?? value }] })
    return groups
  }, [operators.data, departments.data, departmentKey, value, currentName, t])
  return <Select searchable nothingFoundMessage={t`Nessun operatore`} {...rest} data={data} value={value} onChange={(v) => onChange(v)} />
}
