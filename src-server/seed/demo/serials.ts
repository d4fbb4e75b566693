import type { Services } from '../../context'
import { createSerial, linkSerials } from '../../domains/serials/service'

/** Demo serials: a pump with its motor and board, the board's controller, and a spare motor. */
const SERIALS = [
  { code: 'SN-PMP-0001', product: 'PMP-100', data: { collaudo: 'superato', pressione_bar: 6.2 } },
  { code: 'SN-MOT-0101', product: 'CMP-MOT-01', parent: 'SN-PMP-0001' },
  { code: 'SN-PCB-0201', product: 'CMP-PCB-02', parent: 'SN-PMP-0001' },
  { code: 'SN-CTL-0301', product: 'CTL-200', parent: 'SN-PCB-0201' },
  { code: 'SN-MOT-0102', product: 'CMP-MOT-01' },
] as const

/** Serials and links written through the serials service; skipped once the first one exists. */
export async function seedDemoSerials(svc: Services): Promise<string[]> {
  if (await svc.db.selectFrom('serials').select('id').where('code', '=', SERIALS[0].code).executeTakeFirst()) return []
  const products = new Map((await svc.db.selectFrom('products').select(['id', 'code']).execute()).map((p) => [p.code, p.id]))
  if (SERIALS.some((s) => !products.has(s.product))) return []
  const operator = await svc.db.selectFrom('users').select('id').where('username', '=', 'operatore1').executeTakeFirst()
  const workOrder = await svc.db.selectFrom('work_orders').select('id').where('product_id', '=', products.get('PMP-100')!).orderBy('sequence').executeTakeFirst()
  const now = svc.clock.now()
  await svc.db.transaction().execute(async (trx) => {
    const keys = new Map<string, string>()
    for (const s of SERIALS) {
      const data = 'data' in s ? s.data : {}
      const top = s.product === 'PMP-100'
      const key = await createSerial(
        trx,
        null,
        { code: s.code, product_id: products.get(s.product)!, operator_id: operator?.id ?? null, work_order_id: top ? (workOrder?.id ?? null) : null, data },
        now,
      )
      keys.set(s.code, key)
      if ('parent' in s) await linkSerials(trx, null, { parent_id: keys.get(s.parent)!, child_id: key }, now)
    }
  })
  return SERIALS.map((s) => s.code)
}
