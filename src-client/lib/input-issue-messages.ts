import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import { decimalSeparatorOf, numberToText } from '../../src/i18n/number-text'
import type { InputIssue, InputIssueKind } from '../../src/input-issues'
import { i18n } from './i18n'

/**
 * Refused input in the user's language (src/input-issues.ts): the server's INVALID_INPUT issues
 * ("Note: al massimo 5000 caratteri") and the client's own field checks (NumberTextInput).
 */

/** What a field key reads as; keys missing here show as they are. */
const FIELD_LABELS: Record<string, MessageDescriptor> = {
  _key: msg`Chiave`,
  active: msg`Attivo`,
  body: msg`Testo`,
  close_within: msg`Chiudere entro`,
  code: msg`Codice`,
  comment: msg`Commento`,
  company_name: msg`Ragione sociale`,
  completed_qt: msg`Pezzi fatti`,
  contents: msg`File`,
  context: msg`Contesto`,
  context_key: msg`Elemento`,
  cursor: msg`Pagina`,
  department_key: msg`Reparto`,
  description: msg`Descrizione`,
  due_by: msg`Consegna entro`,
  email: msg`Email`,
  expiration: msg`Scadenza`,
  fields: msg`Campi`,
  file: msg`File`,
  filenames: msg`Nomi dei file`,
  help_text: msg`Testo di aiuto`,
  hourly_cost: msg`Costo orario`,
  jobs: msg`Job`,
  media: msg`Allegati`,
  metadata: msg`Campi personalizzati`,
  minimum_order: msg`Ordine minimo`,
  multiple: msg`Valori multipli`,
  name: msg`Nome`,
  notes: msg`Note`,
  object_key: msg`Elemento`,
  operator_hourly_cost: msg`Costo orario operatore`,
  options: msg`Opzioni`,
  password: msg`Password`,
  phase_operators: msg`Operatori delle fasi`,
  phases: msg`Fasi`,
  quantity: msg`Quantità`,
  reason: msg`Motivo`,
  scope: msg`Permessi`,
  start_from: msg`Inizio da`,
  steps: msg`Passi`,
  subfolder: msg`Campo del modulo`,
  surname: msg`Cognome`,
  tag_name: msg`Tag`,
  tags: msg`Tag`,
  technical_batch: msg`Lotto tecnico`,
  title: msg`Titolo`,
  username: msg`Username`,
  value: msg`Valore`,
  values: msg`Valori`,
}

const lastNamedSegment = (path: string) => path.split('.').filter((part) => !/^\d+$/.test(part)).at(-1) ?? ''

/** The label of a field path: its last named segment (`phases.0.name` reads as "Nome"). */
export function fieldLabel(path: string): string {
  const key = lastNamedSegment(path)
  const label = FIELD_LABELS[key]
  return label ? i18n._(label) : key
}

/** The translated label of a field path, or undefined when the path names no known field. */
export function knownFieldLabel(path: string): string | undefined {
  const label = FIELD_LABELS[lastNamedSegment(path)]
  return label ? i18n._(label) : undefined
}

const limitText = (limit: number | undefined) => numberToText(limit ?? 0, decimalSeparatorOf(i18n.locale))

/** What is wrong, without the field's name ("al massimo 5000 caratteri"). */
export function issueText(kind: InputIssueKind, limit?: number): string {
  const n = limitText(limit)
  switch (kind) {
    case 'required':
      return i18n._(msg`obbligatorio`)
    case 'type':
      return i18n._(msg`valore di tipo sbagliato`)
    case 'min_length':
      return i18n._(msg`almeno ${n} caratteri`)
    case 'max_length':
      return i18n._(msg`al massimo ${n} caratteri`)
    case 'min_items':
      return i18n._(msg`almeno ${n} elementi`)
    case 'max_items':
      return i18n._(msg`al massimo ${n} elementi`)
    case 'min_value':
      return limit === 0 ? i18n._(msg`deve essere 0 o più`) : i18n._(msg`deve essere almeno ${n}`)
    case 'max_value':
      return i18n._(msg`deve essere al massimo ${n}`)
    case 'integer':
      return i18n._(msg`solo numeri interi`)
    case 'choice':
      return i18n._(msg`valore non tra quelli ammessi`)
    case 'format':
      return i18n._(msg`formato non valido`)
    case 'unknown_key':
      return i18n._(msg`campo non previsto`)
    case 'not_a_number':
      return i18n._(msg`non è un numero`)
    case 'two_separators':
      return i18n._(msg`usa un solo separatore decimale (virgola o punto), senza separatore delle migliaia`)
    case 'too_many_digits':
      return i18n._(msg`al massimo ${n} cifre`)
    case 'max_decimals':
      return limit === 0 ? i18n._(msg`solo numeri interi`) : i18n._(msg`al massimo ${n} decimali`)
    case 'duplicate':
      return i18n._(msg`contiene valori ripetuti`)
    case 'empty_item':
      return i18n._(msg`contiene un valore vuoto`)
    case 'bad_characters':
      return i18n._(msg`contiene caratteri non ammessi`)
    case 'empty_file':
      return i18n._(msg`il file è vuoto`)
    case 'not_allowed':
      return i18n._(msg`non ammesso qui`)
    case 'max_years':
      return i18n._(msg`al massimo ${n} anni da oggi`)
    case 'invalid':
      return i18n._(msg`valore non valido`)
  }
}

/** "Note: al massimo 5000 caratteri"; the input as a whole has no label. */
export function issueMessage(issue: Pick<InputIssue, 'path' | 'kind' | 'limit'>): string {
  const label = fieldLabel(issue.path)
  const text = issueText(issue.kind, issue.limit)
  return label ? `${label}: ${text}` : capitalised(text)
}

export const capitalised = (text: string) => text.charAt(0).toLocaleUpperCase() + text.slice(1)
