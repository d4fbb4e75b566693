import { sql } from 'kysely'
import type { FieldType } from '../../../src/domains/form-fields/schemas'
import type { IssueLinkType } from '../../../src/domains/issue-types/schemas'
import type { Step, StepType } from '../../../src/domains/process/steps'
import type { Services } from '../../context'

/** Demo form fields: one of each type. */
export const DEMO_FIELDS: { name: string; type: FieldType; options?: string[]; multiple?: boolean; mandatory?: boolean; help_text?: string }[] = [
  { name: 'Lotto componente', type: 'text', help_text: "Il codice del lotto stampato sull'etichetta del componente" },
  { name: 'Coppia di serraggio (Nm)', type: 'number', mandatory: true, help_text: 'Valore letto sulla chiave dinamometrica' },
  { name: 'Etichetta applicata', type: 'boolean', mandatory: true },
  { name: 'Esito controllo visivo', type: 'ternary', mandatory: true, help_text: 'N.A. se il controllo non si applica a questa variante' },
  { name: 'Esito collaudo', type: 'choice', options: ['Conforme', 'Non conforme', 'Da rilavorare'], mandatory: true },
  { name: 'Data di scadenza', type: 'date' },
  { name: 'Ora di fine prova', type: 'time' },
  { name: 'Foto difetto', type: 'files', multiple: true, help_text: 'Una o più foto, solo se il pezzo non è conforme' },
  // Serial fields of the traced products (seed/demo/traced.ts).
  { name: 'Pressione di prova (bar)', type: 'number', help_text: 'Pressione letta sul manometro del banco di prova' },
  { name: 'Esito prova di tenuta', type: 'choice', options: ['Conforme', 'Non conforme'] },
]

type DemoStep = { type: StepType; title: string; text: string; fields?: string[] }

/** Demo operations with their default phase steps (fields by name). */
export const DEMO_OPERATIONS: { name: string; steps: DemoStep[] }[] = [
  {
    name: 'Montaggio',
    steps: [
      { type: 'instruction', title: 'Prepara i componenti', text: 'Preleva i componenti della distinta dal carrello.\nControlla che i codici corrispondano.' },
      { type: 'instruction', title: 'Assembla il gruppo', text: 'Monta il gruppo seguendo lo schema.\nNon forzare gli accoppiamenti.' },
      { type: 'form', title: 'Serraggio', text: 'Serra le viti in sequenza incrociata.', fields: ['Coppia di serraggio (Nm)', 'Lotto componente'] },
    ],
  },
  {
    name: 'Collaudo',
    steps: [
      { type: 'instruction', title: 'Prova funzionale', text: 'Collega il pezzo al banco di prova e avvia il ciclo automatico.' },
      { type: 'form', title: 'Esito del collaudo', text: '', fields: ['Esito collaudo', 'Esito controllo visivo', 'Ora di fine prova', 'Foto difetto'] },
    ],
  },
  {
    name: 'Imballaggio',
    steps: [
      { type: 'instruction', title: 'Imballa', text: 'Avvolgi il pezzo nel film protettivo e mettilo nella scatola.' },
      { type: 'form', title: 'Etichettatura', text: "Applica l'etichetta sul lato corto della scatola.", fields: ['Etichetta applicata', 'Data di scadenza'] },
    ],
  },
]

export const DEMO_ISSUE_TYPES: { code: string; name: string; close_within_hours: number; critical: boolean; link_type: IssueLinkType }[] = [
  { code: 'NCM', name: 'NC materiale', close_within_hours: 24, critical: false, link_type: 'product' },
  { code: 'GM', name: 'Guasto macchina', close_within_hours: 4, critical: true, link_type: 'job' },
  { code: 'SIC', name: 'Sicurezza', close_within_hours: 0, critical: true, link_type: 'generic' },
  { code: 'DQ', name: 'Difetto di qualità', close_within_hours: 8, critical: false, link_type: 'serial' },
]

/**
 * Demo form fields, operations and issue types. Idempotent: a field or operation whose name
 * exists (any case), or an issue type whose code exists, is left as it is.
 */
export async function seedDemoLibraries(svc: Services): Promise<string[]> {
  const now = svc.clock.now()
  const created: string[] = []
  const names = async (table: 'form_fields' | 'operations') =>
    new Set((await svc.db.selectFrom(table).select('name').execute()).map((r) => r.name.toLowerCase()))

  const fieldNames = await names('form_fields')
  const newFields = DEMO_FIELDS.filter((f) => !fieldNames.has(f.name.toLowerCase()))
  if (newFields.length) {
    await svc.db
      .insertInto('form_fields')
      .values(
        newFields.map((f) => ({
          name: f.name,
          type: f.type,
          options: JSON.stringify(f.options ?? []),
          multiple: f.multiple ?? false,
          mandatory: f.mandatory ?? false,
          help_text: f.help_text ?? '',
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
      .execute()
    created.push(...newFields.map((f) => `field "${f.name}"`))
  }

  const fieldIds = new Map(
    (await svc.db.selectFrom('form_fields').select(['id', 'name']).where('archived_at', 'is', null).execute()).map((f) => [f.name.toLowerCase(), f.id]),
  )
  const stepsOf = (steps: DemoStep[]): Step[] =>
    steps
      .map((s) => ({
        _key: crypto.randomUUID(),
        type: s.type,
        title: s.title,
        text: s.text,
        media: [],
        fields: (s.fields ?? []).flatMap((name) => fieldIds.get(name.toLowerCase()) ?? []),
        print_templates: [],
      }))
      .filter((s) => s.type === 'instruction' || s.fields.length > 0)
  const operationNames = await names('operations')
  const newOperations = DEMO_OPERATIONS.filter((o) => !operationNames.has(o.name.toLowerCase()))
  if (newOperations.length) {
    await svc.db
      .insertInto('operations')
      .values(newOperations.map((o) => ({ name: o.name, default_phase_steps: JSON.stringify(stepsOf(o.steps)), created_at: now, updated_at: now })))
      .onConflict((oc) => oc.expression(sql`lower(name)`).doNothing())
      .execute()
    created.push(...newOperations.map((o) => `operation "${o.name}"`))
  }

  const codes = new Set((await svc.db.selectFrom('issue_types').select('code').execute()).map((t) => t.code.toLowerCase()))
  const newTypes = DEMO_ISSUE_TYPES.filter((t) => !codes.has(t.code.toLowerCase()))
  if (newTypes.length) {
    await svc.db
      .insertInto('issue_types')
      .values(newTypes.map((t) => ({ ...t, print_templates: JSON.stringify([]), created_at: now, updated_at: now })))
      .onConflict((oc) => oc.expression(sql`lower(code)`).doNothing())
      .execute()
    created.push(...newTypes.map((t) => `issue type ${t.code}`))
  }
  return created
}
