import { describe, expect, test } from 'bun:test'
import { getBom } from '../../domains/bom/service'
import { getProcess } from '../../domains/process/service'
import { listStepMedia } from '../../domains/process/step-media'
import { tableCounts } from '../../test/fixtures'
import { ADMIN_PASSWORD, signIn, useHarness } from '../../test/harness'
import { seedDemoDepartments } from './departments'
import { seedDemoLibraries } from './libraries'
import { DEMO_PROCESSES, seedDemoProcesses } from './process'
import { seedDemoProducts } from './products'
import { seedDemoUsers } from './users'

describe('demo processes and boms seed', () => {
  const h = useHarness()

  test('the finished demo products get phases with steps and media, and boms, released as revision 1; running again changes nothing', async () => {
    await seedDemoDepartments(h.svc)
    await seedDemoUsers(h.svc)
    await seedDemoLibraries(h.svc)
    const products = await seedDemoProducts(h.svc)
    const created = await seedDemoProcesses(h.svc, products)
    expect(created).toEqual([
      'process of PMP-100 (3 phases)',
      'bom of PMP-100 (5 lines)',
      'revision 1 of PMP-100',
      'process of CTL-200 (2 phases)',
      'bom of CTL-200 (3 lines)',
      'revision 1 of CTL-200',
      'process of VLV-300 (2 phases)',
      'bom of VLV-300 (3 lines)',
      'revision 1 of VLV-300',
    ])

    const pump = await getProcess(h.svc, products['PMP-100']!)
    expect(pump.phases.map((p) => [p.name, p.operation_name, p.component_count])).toEqual([
      ['Montaggio pompa', 'Montaggio', 4],
      ['Collaudo funzionale', 'Collaudo', 0],
      ['Imballaggio', 'Imballaggio', 1],
    ])
    expect(pump.phases[1]!.parameters).toMatchObject({ release_style: 'release_batch', release_batch_qt: 10, std_processing_time: 180 })
    expect(pump.phases[0]!.steps.map((s) => s.type)).toEqual(['instruction', 'instruction', 'form'])
    const media = await listStepMedia(h.svc, pump.phases[0]!.steps[0]!._key)
    expect(media.map((m) => [m.filename, m.content_type])).toEqual([
      ['Schema PMP-100.png', 'image/png'],
      ['Istruzioni PMP-100.pdf', 'application/pdf'],
    ])
    const bom = await getBom(h.svc, products['PMP-100']!)
    expect(bom.lines.map((l) => [l.item_code, l.quantity, l.quantity_per, l.traceability])).toContainEqual(['CMP-VIT-05', 0.08, 'item', 'none'])

    // The demo users can open what was seeded; served media answer.
    const admin = await signIn(h, 'admin', ADMIN_PASSWORD)
    const file = await h.request('GET', media[1]!.step_url, { token: admin })
    expect(file.headers.get('content-type')).toBe('application/pdf')

    const before = await tableCounts(h)
    expect(await seedDemoProcesses(h.svc, products)).toEqual([])
    expect(await tableCounts(h)).toEqual(before)
    expect(DEMO_PROCESSES.every((d) => products[d.product])).toBe(true)
  })
})
