import { queryClient, trpc } from '../../../../../lib/trpc'

/** The serial field list is read by the tab and the detail; refetched after every change. */
export const refreshSerialFields = () => queryClient.invalidateQueries({ queryKey: trpc.serialFields.list.queryKey() })
