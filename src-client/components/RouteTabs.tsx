import { Tabs } from '@mantine/core'
import { useLocation, useNavigate } from '@tanstack/react-router'
import type { ReactNode } from 'react'

export type RouteTab = { to: string; label: ReactNode }

/** Tabs that are routes: the active tab follows the URL and clicking one navigates. */
export function RouteTabs({ tabs, mb = 'md' }: { tabs: RouteTab[]; mb?: string }) {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const active = [...tabs].sort((a, b) => b.to.length - a.to.length).find((t) => pathname === t.to || pathname.startsWith(`${t.to}/`))
  return (
    <Tabs value={active?.to ?? null} onChange={(to) => to && navigate({ to })} mb={mb} keepMounted={false}>
      <Tabs.List>
        {tabs.map((t) => (
          <Tabs.Tab key={t.to} value={t.to}>
            {t.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  )
}
