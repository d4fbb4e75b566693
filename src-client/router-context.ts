import type { QueryClient } from '@tanstack/react-query'
import type { MessageDescriptor } from '@lingui/core'
import type { Scope } from '../src/auth/scopes'
import type { AuthStore } from './lib/auth-store'
import type { Trpc } from './lib/trpc'

export type RouterContext = { queryClient: QueryClient; trpc: Trpc; auth: AuthStore }

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The permission this route (and everything below it) needs (any one of several). */
    scope?: Scope | readonly Scope[]
    /** Screen title; the deepest matched one wins, else 'progress'. */
    title?: MessageDescriptor
  }
}
