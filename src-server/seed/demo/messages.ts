import type { MessageContext } from '../../../src/domains/messages/schemas'
import type { Actor, Services } from '../../context'
import { editMessage, postMessage, removeMessage } from '../../domains/messages/service'

type Line = {
  /** Demo username. */
  by: string
  /** Minutes before now. */
  ago: number
  body: string
  edit?: string
  remove?: true
}

/** On the demo operator's job of the first work order: the last two lines are unread for operatore1. */
const JOB_THREAD: Line[] = [
  { by: 'operatore1', ago: 190, body: 'Buongiorno, sul lotto 2 le viti M6 sono quasi finite. Ne arrivano altre?' },
  { by: 'produzione', ago: 182, body: 'Sì, il magazzino le porta entro le 10.' },
  { by: 'operatore1', ago: 95, body: 'Arrivate, grazie. Riprendo il montaggio.' },
  { by: 'produzione', ago: 40, body: 'Il cliente chiede 5 pezzi in anticipo: puoi chiudere il lotto entro stasera?' },
  { by: 'qualita', ago: 25, body: 'Prima della chiusura ricordati il controllo della coppia sui primi 3 pezzi.' },
]

/** On the first work order: production and quality, one message edited and one withdrawn. */
const WORK_ORDER_THREAD: Line[] = [
  { by: 'produzione', ago: 600, body: 'Ordine prioritario: consegna parziale a metà settimana.', edit: 'Ordine prioritario: consegna parziale di 10 pezzi a metà settimana.' },
  { by: 'qualita', ago: 560, body: 'Ok. Campionamento al 10% sul collaudo finale.' },
  { by: 'produzione', ago: 300, body: 'Spostato il collaudo su Linea 2.', remove: true },
  { by: 'capoturno', ago: 120, body: 'Il secondo turno copre il collaudo da domani.' },
  { by: 'operatore2', ago: 30, body: 'Verniciatura: mancano 3 pezzi dal montaggio per chiudere il lotto.' },
]

/** On the demo operator's job of the late work order: still unread for operatore1. */
const LATE_JOB_THREAD: Line[] = [{ by: 'produzione', ago: 15, body: 'Questo ordine è in ritardo: dagli la precedenza dopo il lotto in corso.' }]

/**
 * A few message threads between the demo operators, production and quality on the demo work
 * orders and jobs, some unread for operatore1. Only into a plant without messages yet; skips
 * when the demo work orders are missing. Returns how many messages it posted.
 */
export async function seedDemoMessages(svc: Services): Promise<number> {
  if (await svc.db.selectFrom('messages').select('id').limit(1).executeTakeFirst()) return 0
  const users = await svc.db.selectFrom('users').select(['id', 'username', 'scope']).where('archived_at', 'is', null).execute()
  const actors = new Map(users.map((u): [string, Actor] => [u.username, { userId: u.id, sessionId: null, scope: u.scope, tokenId: null }]))
  const operator = actors.get('operatore1')
  if (!operator) return 0
  const workOrders = await svc.db.selectFrom('work_orders').select('id').where('archived_at', 'is', null).orderBy('sequence').limit(2).execute()
  const jobOf = async (woId: string | undefined) =>
    woId
      ? svc.db.selectFrom('jobs').select('id').where('work_order_id', '=', woId).where('operator_id', '=', operator.userId).orderBy('position').limit(1).executeTakeFirst()
      : undefined

  const threads: [MessageContext | null, Line[]][] = []
  const [first, late] = workOrders
  const firstJob = await jobOf(first?.id)
  const lateJob = await jobOf(late?.id)
  threads.push([firstJob ? { context_type: 'job', context_key: firstJob.id } : null, JOB_THREAD])
  threads.push([first ? { context_type: 'work_order', context_key: first.id } : null, WORK_ORDER_THREAD])
  threads.push([lateJob ? { context_type: 'job', context_key: lateJob.id } : null, LATE_JOB_THREAD])

  const now = svc.clock.now().getTime()
  // The service stamps messages with its clock: each line at its own time in the past.
  const at = (minutesAgo: number): Services => ({ ...svc, clock: { now: () => new Date(now - minutesAgo * 60_000) } })
  let posted = 0
  for (const [ctx, lines] of threads) {
    if (!ctx) continue
    for (const line of lines) {
      const actor = actors.get(line.by)
      if (!actor) continue
      const row = await postMessage(at(line.ago), actor, { ...ctx, body: line.body })
      if (line.edit) await editMessage(at(line.ago - 5), actor, { key: row._key, body: line.edit })
      if (line.remove) await removeMessage(at(line.ago - 2), actor, row._key)
      posted++
    }
  }
  return posted
}
