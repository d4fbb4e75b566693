import { useSyncExternalStore } from 'react'
import { auth } from './auth-store'

export const useAuthState = () => useSyncExternalStore(auth.subscribe, auth.getState)

export function useSession() {
  const state = useAuthState()
  return state.status === 'active' || state.status === 'locked' ? state.session : null
}
