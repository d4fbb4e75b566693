import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { FieldType } from '../../src/domains/form-fields/schemas'
import type { IssueLinkType } from '../../src/domains/issue-types/schemas'
import type { SignatureMeaning, StepType } from '../../src/domains/process/steps'
import type { TraceabilityLevel } from '../../src/domains/products/bom'

/** How people read the form field types (admin field library, forms, product metadata). */
export const FIELD_TYPE_LABELS: Record<FieldType, MessageDescriptor> = {
  text: msg`Testo`,
  number: msg`Numero`,
  boolean: msg`Sì/No`,
  ternary: msg`Sì/No/N.A.`,
  choice: msg`Scelta da elenco`,
  date: msg`Data`,
  time: msg`Ora`,
  files: msg`File`,
}

/** What an issue of a type is linked to. */
export const ISSUE_LINK_LABELS: Record<IssueLinkType, MessageDescriptor> = {
  job: msg`Lavoro`,
  work_order: msg`Ordine di lavoro`,
  product: msg`Prodotto`,
  serial: msg`Seriale`,
  position: msg`Posizione di magazzino`,
  generic: msg`Generico`,
}

export const STEP_TYPE_LABELS: Record<StepType, MessageDescriptor> = {
  instruction: msg`Istruzione`,
  form: msg`Modulo`,
}

/** What a signature means (issue 22): the library chooses it per step, records show it. */
export const SIGNATURE_MEANING_LABELS: Record<SignatureMeaning, MessageDescriptor> = {
  performed: msg`Eseguito`,
  verified: msg`Verificato`,
  approved: msg`Approvato`,
}

/** SPEC 4 traceability levels (a phase's production, a bom component). */
export const TRACEABILITY_LABELS: Record<TraceabilityLevel, MessageDescriptor> = { none: msg`Nessuna`, form: msg`Solo modulo`, complete: msg`Completa` }
