import { Tabs } from '@mantine/core'
import { useLocation, useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'

export type OperatorTab = { to: string; label: ReactNode; testId?: string }

/** Route tabs sized for a touch screen (48 px targets); the active tab follows the URL (`keepSearch`: with its query). */
export function OperatorTabs({ tabs, keepSearch = false }: { tabs: OperatorTab[]; keepSearch?: boolean }) {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const active = [...tabs].sort((a, b) => b.to.length - a.to.length).find((t) => pathname === t.to || pathname.startsWith(`${t.to}/`))
  return (
    <Tabs value={active?.to ?? null} onChange={(to) => to && navigate({ to, search: keepSearch ? true : undefined })} mb="sm" keepMounted={false}>
      <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }}>
        {tabs.map((t) => (
          <Tabs.Tab key={t.to} value={t.to} fz="md" fw={600} mih={48} px="sm" data-testid={t.testId}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  )
}
