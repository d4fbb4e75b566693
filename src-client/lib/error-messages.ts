import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ErrorCode } from '../../src/errors'
import { INPUT_ISSUE_KINDS, type InputIssue } from '../../src/input-issues'
import type { ApiError } from './api-error'
import { issueMessage, knownFieldLabel } from './input-issue-messages'
import { i18n } from './i18n'

// Counter template parts are quoted as values: braces in a message would read as ICU placeholders.
const COUNTER_PARTS = '{YYYY} {YY} {MM} {DD} {WW} {###}'
const COUNTER_PARTS_EXAMPLE = '{YY}, {#####}'
const COUNTER_SEQUENCE_PART = '{###}'

/** What the user reads for each server error code; the record type forces every code to be translated. */
const MESSAGES: Record<ErrorCode, MessageDescriptor | null> = {
  INVALID_INPUT: null, // each of `issues` names its field (input-issue-messages.ts); else invalidInputWithoutIssues
  MALFORMED_JSON: msg`Richiesta non valida`,
  PAYLOAD_TOO_LARGE: msg`Il file o i dati sono troppo grandi`,
  NOT_FOUND: msg`Elemento non trovato`,
  LOGIN_FAILED: msg`Username o password errati`,
  LOGIN_THROTTLED: msg`Troppi tentativi falliti: riprova tra qualche minuto`,
  NOT_AUTHENTICATED: msg`Effettua prima il login`,
  NOT_AUTHORISED: msg`Non autorizzato`,
  BAD_ORIGIN: msg`Richiesta rifiutata: origine non valida`,
  SESSION_LOCKED: msg`Sessione bloccata: inserisci la password`,
  PASSWORD_CHANGE_REQUIRED: msg`Cambia la password temporanea per continuare`,
  WRONG_PASSWORD: msg`Password errata`,
  WEAK_PASSWORD: msg`La nuova password deve essere diversa da quella attuale`,
  WRONG_USER_ID: msg`ID utente errato`,
  NO_HOMEPAGE: msg`Impossibile cambiare la pagina iniziale: non disponibile con i tuoi permessi`,
  USERNAME_TAKEN: msg`Username già in uso`,
  USERNAME_ARCHIVED: msg`Username di un utente archiviato: ripristina quell'utente invece di crearne uno nuovo`,
  USERNAME_REQUIRED: msg`Username obbligatorio`,
  PERMISSION_REQUIRED: msg`Seleziona almeno un permesso`,
  UNKNOWN_PERMISSION: msg`Permesso sconosciuto: i permessi sono admin, library, operator, production, quality, traceability, reporting, warehouse`,
  INVALID_IMAGE: msg`Il file non è un'immagine valida`,
  LOGO_NOT_SQUARE: msg`Il logo deve essere quadrato (proporzioni 1:1)`,
  OPERATOR_HOURLY_COST_NEGATIVE: msg`Il costo orario dell'operatore deve essere maggiore o uguale a 0`,
  RELEASE_BATCH_QT_REQUIRED: msg`Con lo stile di rilascio "lotto di rilascio" la quantità del lotto di rilascio deve essere maggiore di 0`,
  DEPARTMENT_CODE_TAKEN: msg`Codice reparto già in uso`,
  DEPARTMENT_IN_USE: msg`Il reparto è in uso (utenti o fasi dei prodotti) e non può essere eliminato`,
  API_TOKEN_DESCRIPTION_REQUIRED: msg`Il token API richiede una descrizione`,
  API_TOKEN_EXPIRATION_REQUIRED: msg`Il token API richiede una scadenza`,
  API_TOKEN_EXPIRATION_PAST: msg`La scadenza deve essere nel futuro`,
  API_TOKEN_EXPIRATION_INVALID: msg`Scadenza non valida: scrivi una data (AAAA/MM/GG) o una durata come 30d, 12h, 10min, 1m (30 giorni), 1y (360 giorni)`,
  HOURLY_COST_NEGATIVE: msg`Il costo orario deve essere maggiore o uguale a 0`,
  WRONG_DEPARTMENT_KEY: msg`Reparto inesistente`,
  CANNOT_ARCHIVE_SELF: msg`Non puoi eliminare il tuo stesso utente`,
  CANNOT_DISABLE_SELF: msg`Non puoi disabilitare il tuo stesso utente`,
  CANNOT_REMOVE_OWN_ADMIN: msg`Non puoi togliere a te stesso il permesso admin`,
  CANNOT_RESET_OWN_PASSWORD: msg`Non puoi reimpostare la tua password: usa "Cambia password"`,
  OPERATION_NAME_REQUIRED: msg`Nome dell'operazione obbligatorio`,
  OPERATION_NAME_TAKEN: msg`Nome dell'operazione già in uso`,
  OPERATION_IN_USE: msg`Impossibile eliminare l'operazione: è usata nei processi dei prodotti. Contatta l'amministratore`,
  STEP_FIELDS_REQUIRED: msg`Ogni passo modulo deve avere almeno un campo`,
  UNKNOWN_FIELD: msg`Campo del modulo inesistente`,
  FIELD_ARCHIVED: msg`Il campo è archiviato: ripristinalo prima di usarlo`,
  UNKNOWN_MEDIA: msg`File allegato inesistente`,
  UNSUPPORTED_MEDIA_TYPE: msg`Tipo di file non ammesso: carica immagini (PNG, JPEG, WebP, GIF), PDF o video MP4/WebM`,
  FIELD_NAME_REQUIRED: msg`Nome del campo obbligatorio`,
  FIELD_NAME_TAKEN: msg`Nome del campo già in uso`,
  FIELD_OPTIONS_REQUIRED: msg`Un campo a scelta deve avere almeno un'opzione`,
  FIELD_IN_USE: msg`Il campo è in uso: il tipo non può cambiare`,
  SERIAL_FIELD_TAKEN: msg`Il campo è già tra i campi dei seriali`,
  SERIAL_FIELD_ORDER_MISMATCH: msg`I campi dei seriali sono cambiati: ricarica la pagina`,
  ISSUE_TYPE_CODE_REQUIRED: msg`Codice del tipo di segnalazione obbligatorio`,
  ISSUE_TYPE_NAME_REQUIRED: msg`Nome del tipo di segnalazione obbligatorio`,
  ISSUE_TYPE_CODE_TAKEN: msg`Codice del tipo di segnalazione già in uso`,
  ISSUE_TYPE_IN_USE: msg`Tipo di segnalazione in uso: non può essere eliminato`,
  COUNTER_NAME_REQUIRED: msg`Nome del contatore obbligatorio`,
  COUNTER_NAME_TAKEN: msg`Nome del contatore già in uso`,
  COUNTER_IN_USE: msg`Impossibile eliminare il contatore: è usato da seriali o fasi`,
  COUNTER_TEMPLATE_BRACES: msg`Modello non valido: ogni parentesi graffa aperta deve essere chiusa (es. ${COUNTER_PARTS_EXAMPLE})`,
  COUNTER_TEMPLATE_UNKNOWN_PART: msg`Modello non valido: parte sconosciuta tra graffe. Si possono usare ${COUNTER_PARTS}`,
  COUNTER_TEMPLATE_SEQUENCE: msg`Il modello deve contenere una sola sequenza ${COUNTER_SEQUENCE_PART} con al massimo 12 cifre`,
  COUNTER_TEMPLATE_PERIOD_MISSING: msg`Il modello deve mostrare il periodo dell'azzeramento (anno, e mese, settimana o giorno), altrimenti i codici si ripeterebbero`,
  COUNTER_SEQUENCE_FULL: msg`Il contatore ha esaurito i numeri della sua sequenza: allarga ${COUNTER_SEQUENCE_PART} nel modello`,
  PRODUCT_CODE_REQUIRED: msg`Il codice del prodotto è obbligatorio`,
  PRODUCT_CODE_TAKEN: msg`Codice prodotto già in uso`,
  PRODUCT_IN_TRASH: msg`Il prodotto è nel cestino: ripristinalo prima di modificarlo`,
  METADATA_VALUE_INVALID: msg`Valore non valido per un campo personalizzato`,
  DOC_EXISTS: msg`Esiste già un documento con questo nome`,
  UNSUPPORTED_FILE_TYPE: msg`Tipo di file non ammesso: carica PDF, immagini, documenti Office/OpenDocument o file di testo (TXT, CSV)`,
  UNKNOWN_FILE: msg`File inesistente: caricalo di nuovo`,
  FILE_IN_USE: msg`Il file è ancora usato dai dati del prodotto`,
  PHASE_HAS_COMPONENTS: msg`Una fase con componenti non può essere eliminata`,
  PHASE_IN_USE: msg`Una fase usata dagli ordini di lavoro non può essere eliminata`,
  UNKNOWN_OPERATION: msg`Operazione inesistente`,
  UNKNOWN_REVISION: msg`Revisione inesistente`,
  PROCESS_EMPTY: msg`La bozza non ha fasi: aggiungi il processo prima di rilasciare`,
  NOTHING_TO_RELEASE: msg`La bozza è uguale all'ultima revisione rilasciata: non c'è niente da rilasciare`,
  NO_REVISION: msg`Il prodotto non ha ancora una revisione rilasciata`,
  REVISION_IN_USE: msg`È usato da una revisione rilasciata di un prodotto e non può essere eliminato`,
  PRODUCT_NOT_RELEASED: msg`Il prodotto non ha una revisione rilasciata: rilascia il processo nella libreria prodotti prima di creare l'ordine di lavoro`,
  WORK_ORDER_STARTED: msg`L'ordine di lavoro è già iniziato: resta sulla sua revisione fino alla fine`,
  REVISION_NOT_NEWER: msg`L'ordine di lavoro è già sull'ultima revisione rilasciata`,
  UNKNOWN_COUNTER: msg`Contatore inesistente`,
  UNKNOWN_PHASE: msg`Fase inesistente`,
  UNKNOWN_PRODUCT: msg`Prodotto inesistente`,
  PROCESS_COPY_SELF: msg`Non puoi copiare il processo di un prodotto su sé stesso`,
  PROCESS_COPY_EMPTY: msg`Il prodotto scelto non ha fasi da copiare`,
  STEP_MEDIA_NAME_TAKEN: msg`Al passo è già allegato un file con questo nome`,
  BOM_QUANTITY_NOT_POSITIVE: msg`La quantità deve essere positiva`,
  BOM_ITEM_REPEATED: msg`Un articolo non può ripetersi in una fase`,
  BOM_ITEM_INACTIVE: msg`Il componente non è un prodotto attivo`,
  BOM_CYCLE: msg`Il prodotto conterrebbe sé stesso attraverso i suoi componenti`,
  WORK_ORDER_PRODUCT_INACTIVE: msg`Il prodotto non è attivo o è nel cestino: non si possono creare ordini di lavoro`,
  WORK_ORDER_PRODUCT_NO_PROCESS: msg`Il prodotto non ha un processo: aggiungi almeno una fase prima di creare l'ordine di lavoro`,
  DUE_BEFORE_START: msg`La data di consegna non può precedere la data di inizio`,
  WRONG_OPERATOR: msg`L'utente scelto non è un operatore attivo`,
  OPERATOR_REQUIRED: msg`Assegna un operatore ai nuovi job`,
  WORKLOAD_NOT_DISTRIBUTED: msg`Tutto il carico di lavoro deve essere distribuito prima di salvare`,
  JOB_BELOW_DONE: msg`La quantità di un job non può scendere sotto i pezzi già fatti o in lavorazione`,
  UNKNOWN_JOB: msg`Job inesistente o di un'altra fase`,
  UNKNOWN_WORK_ORDER: msg`Ordine di lavoro inesistente`,
  WORK_ORDER_ARCHIVED: msg`L'ordine di lavoro è archiviato: ripristinalo prima di modificarlo`,
  WORK_ORDER_NOT_ARCHIVED: msg`L'ordine di lavoro non è archiviato`,
  QUEUE_POSITION_OUT_OF_RANGE: msg`La posizione è oltre la fine della coda`,
  WORK_ORDER_NOT_FINISHED: msg`Si possono archiviare solo gli ordini di lavoro completati o chiusi`,
  WORK_ORDER_CLOSED: msg`L'ordine di lavoro è chiuso: riaprilo prima di cambiare la quantità`,
  WORK_ORDER_STATUS_CHANGE: msg`Un ordine di lavoro completato non può essere chiuso o riaperto a mano`,
  WORK_ORDER_JOBS_RUNNING: msg`Alcuni job sono in lavorazione: mettili in pausa prima di chiudere l'ordine di lavoro`,
  QUANTITIES_MISMATCH: msg`Le quantità non corrispondono al totale della fase`,
  NEW_JOBS_NEED_OPERATOR: msg`Assegna un operatore ai nuovi job`,
  JOB_RUNNING: msg`Il job è in lavorazione: mettilo prima in pausa`,
  JOB_CLOSED: msg`Il job è chiuso`,
  JOB_HAS_ACTIVE_PIECES: msg`Il job ha pezzi in lavorazione: annullali prima`,
  JOB_NO_PROGRESS: msg`Il job non ha avanzamento da azzerare`,
  JOB_NO_ACTIVE_PIECES: msg`Il job non ha pezzi in lavorazione`,
  JOB_HAS_TRACEABILITY: msg`La fase ha componenti tracciati: l'avanzamento non si può modificare a mano`,
  JOB_NOT_STARTED: msg`Il job non è ancora iniziato`,
  JOB_NOT_RUNNING: msg`Il job non è in lavorazione`,
  PROGRESS_ABOVE_QUANTITY: msg`L'avanzamento non può superare la quantità del job`,
  NOT_ENOUGH_MATERIAL: msg`Materiale insufficiente: la fase precedente non ha rilasciato abbastanza pezzi`,
  DOWNSTREAM_CONSUMED: msg`I pezzi rilasciati sono già stati presi dalla fase successiva`,
  UNASSIGNED_JOBS_NOT_ALLOWED: msg`Le impostazioni non consentono job senza operatore`,
  QUEUE_NOT_INDEPENDENT: msg`La coda dell'operatore segue l'ordine di stabilimento: attiva l'ordinamento indipendente`,
  QUEUE_REORDERING_DISABLED: msg`Le impostazioni non consentono il riordino indipendente delle code`,
  JOB_NOT_IN_QUEUE: msg`Un job non è nella coda di questo operatore`,
  OWN_QUEUE_ONLY: msg`Puoi vedere e ordinare solo la tua coda`,
  JOB_NOT_YOURS: msg`Questo job è assegnato a un altro operatore`,
  JOB_ALREADY_RUNNING: msg`Il job è già in lavorazione`,
  NO_MATERIAL: msg`Nessun materiale disponibile per il prossimo pezzo`,
  PARALLEL_JOB_NOT_ALLOWED: msg`Non si possono lavorare più job contemporaneamente in queste fasi`,
  BATCH_NOT_OPEN: msg`Il lotto è già completato`,
  BATCH_ALREADY_OPEN: msg`C'è già un lotto aperto per questo job`,
  UNKNOWN_STEP: msg`Passo inesistente in questo lotto`,
  STEP_ALREADY_DONE: msg`Il passo è già stato completato (forse da un altro dispositivo)`,
  STEP_OUT_OF_ORDER: msg`Completa prima i passi precedenti`,
  STEPS_NOT_DONE: msg`Completa prima tutti i passi del lotto`,
  MANDATORY_FIELDS_MISSING: msg`Compila tutti i campi obbligatori`,
  FORM_VALUE_INVALID: msg`Valore non valido in un campo del modulo`,
  IDEMPOTENCY_KEY_REUSED: msg`Richiesta duplicata non valida: riprova`,
  OFFLINE_SINCE_IN_FUTURE: msg`L'inizio del periodo offline è nel futuro: controlla l'orologio del dispositivo`,
  SIGNATURE_REQUIRED: msg`Questo passo va firmato: inserisci la password`,
  SIGNATURE_INVALID: msg`Password errata: il passo non è stato firmato né completato`,
  SECOND_SIGNER_REQUIRED: msg`Questo passo richiede anche la firma di un secondo firmatario`,
  SECOND_SIGNER_INVALID: msg`Nome utente o password del secondo firmatario errati: il passo non è stato completato`,
  SECOND_SIGNER_NOT_ALLOWED: msg`Il secondo firmatario non ha il permesso richiesto per firmare questo passo`,
  SECOND_SIGNER_SAME_PERSON: msg`Il secondo firmatario deve essere un'altra persona`,
  STEP_SIGNED: msg`Il passo è firmato: i suoi dati non si possono più modificare`,
  PIN_SIGNING_DISABLED: msg`La firma con PIN non è consentita dalle impostazioni dello stabilimento: usa la password`,
  PIN_INVALID: msg`Il PIN deve essere fatto di sole cifre, nella lunghezza richiesta`,
  PIN_TOO_SIMPLE: msg`PIN troppo semplice: niente cifre tutte uguali né sequenze come 123456`,
  BADGE_TAKEN: msg`Questo badge è già assegnato a un altro utente`,
  CLIENT_TIME_IN_FUTURE: msg`L'ora dell'operazione è nel futuro: controlla l'orologio del dispositivo`,
  CLIENT_TIME_PAST_MAX_OFFLINE: msg`Operazione fatta offline oltre il tempo massimo consentito dalla fase: la sessione di lavoro era già chiusa`,
  EVENT_TYPE_NOT_REPORTABLE: msg`Questo tipo di evento è registrato solo dal server`,
  UNKNOWN_ISSUE_TYPE: msg`Tipo di segnalazione non trovato`,
  ISSUE_TYPE_INACTIVE: msg`Questo tipo di segnalazione non è più attivo`,
  ISSUE_TITLE_REQUIRED: msg`Il titolo è obbligatorio`,
  ISSUE_CONTEXT_MISMATCH: msg`Il contesto indicato non è coerente (job, lotto, ordine di lavoro o prodotto)`,
  ISSUE_CLOSED: msg`La segnalazione è chiusa`,
  ISSUE_NOT_CLOSED: msg`La segnalazione non è chiusa`,
  ISSUE_ALREADY_CRITICAL: msg`La segnalazione è già critica`,
  ISSUE_NOT_CRITICAL: msg`La segnalazione non è critica`,
  ISSUE_ATTACHMENTS_FULL: msg`La segnalazione ha già il numero massimo di allegati`,
  MESSAGE_BODY_REQUIRED: msg`Scrivi il testo del messaggio`,
  MESSAGE_NOT_OWN: msg`Puoi modificare o eliminare solo i tuoi messaggi`,
  MESSAGE_DELETED: msg`Il messaggio è stato eliminato`,
  CODE_NOT_FOUND: msg`Codice non trovato`,
  CODE_NOT_ALLOWED: msg`Non hai i permessi per aprire ciò che questo codice indica`,
  UNKNOWN_SERIAL: msg`Seriale non trovato`,
  COUNTER_NOT_DEFINED: msg`Nessun contatore definito: inserisci il seriale a mano`,
  SERIAL_CODE_REQUIRED: msg`Il codice del seriale è obbligatorio`,
  SERIAL_CODE_INVALID: msg`Codice seriale non valido: al massimo 200 caratteri, senza caratteri di controllo`,
  SERIAL_DATA_INVALID: msg`Dati del seriale non validi`,
  SERIAL_NEW_ALREADY_PRESENT: msg`Codice seriale già usato: impossibile crearne uno nuovo`,
  SERIAL_ALREADY_PRESENT: msg`Codice seriale già usato: impossibile aggiornare`,
  SERIAL_ALREADY_LINKED: msg`Il seriale è già collegato a un altro seriale: conferma per rimuoverlo dal collegamento attuale`,
  SERIAL_WRONG_PRODUCT: msg`Il seriale è di un altro prodotto: non può essere usato come questo componente`,
  SERIAL_LINK_CYCLE: msg`Collegamento rifiutato: un seriale non può contenere sé stesso`,
  SERIAL_WITHOUT_WORK_ORDER: msg`Il seriale non è stato prodotto in un ordine di lavoro: non ha un registro di produzione`,
  SERIAL_REASON_REQUIRED: msg`Indica il motivo della modifica`,
  SERIAL_CODE_EDIT_DISABLED: msg`La modifica dei codici seriali è disattivata nelle impostazioni`,
  SERIAL_DELETE_DISABLED: msg`La rimozione dei collegamenti tra seriali è disattivata nelle impostazioni`,
  SERIAL_SEARCH_TOO_SHORT: msg`Ricerca troppo corta: scrivi altri caratteri`,
  SERIALS_NOT_DECLARED: msg`Dichiara prima tutti i seriali del lotto`,
  SERIAL_SCANNED_TWICE: msg`Lo stesso seriale è stato letto due volte`,
  SERIAL_DECLARATION_INVALID: msg`Seriali del lotto non validi`,
  UNKNOWN_POSITION: msg`Posizione inesistente`,
  POSITION_CODE_REQUIRED: msg`Il codice della posizione è obbligatorio`,
  POSITION_CODE_TAKEN: msg`Codice posizione già usato`,
  POSITION_INSIDE_ITSELF: msg`Una posizione non può stare dentro sé stessa o dentro una posizione che contiene`,
  POSITION_INACTIVE: msg`La posizione è disattivata`,
  POSITION_NOT_EMPTY: msg`La posizione contiene ancora materiale: svuotala prima di disattivarla`,
  POSITION_HAS_CHILDREN: msg`La posizione contiene altre posizioni attive: disattiva prima quelle`,
  POSITION_SEARCH_TOO_SHORT: msg`Scrivi almeno 3 caratteri per cercare le posizioni`,
  MOVEMENT_POSITIONS_INVALID: msg`Posizioni di partenza e arrivo non adatte a questo tipo di movimento`,
  MOVEMENT_REASON_REQUIRED: msg`Indica il motivo`,
  INSUFFICIENT_STOCK: msg`Giacenza insufficiente nella posizione di partenza`,
  MOVEMENT_NOT_PLANNED: msg`Il movimento non è più pianificato`,
  MOVEMENT_NOT_CONFIRMED: msg`Solo un movimento confermato può essere annullato con storno`,
  MOVEMENT_ALREADY_REVERTED: msg`Il movimento è già stato stornato`,
  SERIAL_ALREADY_IN_STOCK: msg`Seriale già a magazzino: un seriale è un solo pezzo`,
  MOVEMENT_REVERT_ERROR: msg`Errore nello storno del movimento: il materiale ha già lasciato la posizione`,
  STOCK_BUSY: msg`La giacenza è in uso da un'altra operazione: riprova`,
  MISSION_NOT_OPEN: msg`La missione è già conclusa o annullata`,
  MISSION_EMPTY: msg`Nessuna riga da eseguire: la missione sarebbe vuota`,
  MISSION_SCAN_POSITION: msg`Posizione sbagliata: in questa missione non c'è nulla da prelevare lì`,
  MISSION_SCAN_ITEM: msg`Articolo sbagliato: non è previsto in questa posizione per questa missione`,
  MISSION_ASSIGNEE_NOT_WAREHOUSE: msg`La missione si può assegnare solo a un utente del magazzino`,
  WAREHOUSE_POSITION_NOT_SET: msg`Gestione magazzino attiva ma manca la posizione predefinita di produzione o di consumo: chiedi all'amministratore`,
  MOVEMENT_LIST_EMPTY: msg`Nessun movimento pianificato da mettere in lista`,
  PRODUCTION_STOCK_SHORTFALL: msg`Materiale insufficiente nella posizione di consumo per completare il lotto: chiedi al magazzino di portarlo in linea`,
  SERIAL_NOT_IN_STOCK: msg`Seriale non in magazzino: conferma per collegarlo senza movimenti di magazzino`,
  UNKNOWN_PRINT_TEMPLATE: msg`Modello di stampa inesistente`,
  PRINT_TEMPLATE_IN_TRASH: msg`Il modello di stampa è nel cestino: ripristinalo prima di usarlo`,
  BASE_PDF_INVALID: msg`Il file non è un PDF valido`,
  PRINT_FIELD_OUTSIDE: msg`Un campo del modello è fuori dalla pagina`,
  PRINT_VALUE_INVALID: msg`Un valore non si può stampare con il codice a barre scelto`,
  UNKNOWN_ASSIGNMENT_TARGET: msg`Elemento a cui assegnare il modello inesistente`,
  UNKNOWN_PRINTER: msg`Stampante inesistente: impossibile cambiare la stampante`,
  PRINTER_NAME_TAKEN: msg`Nome stampante già usato`,
  PRINTER_URI_INVALID: msg`Indirizzo della stampante non valido: scrivi ad esempio ipp://stampante:631/ipp/print, ipps://server/printers/Zebra o socket://192.168.1.50:9100`,
  PRINTER_UNREACHABLE: msg`Stampante non raggiungibile: controlla che sia accesa e in rete`,
  PRINTER_REFUSED: msg`La stampante ha rifiutato il documento`,
  FLOW_NAME_TAKEN: msg`Esiste già un flusso con questo nome`,
  DELIVERY_PENDING: msg`Questo invio è ancora in attesa: viene ritentato automaticamente`,
  EXPORT_TOO_LARGE: msg`Troppi eventi da esportare (al massimo 100.000): restringi i filtri`,
  IDEMPOTENCY_KEY_REQUIRED: msg`Manca l'intestazione Idempotency-Key`,
  IMPORT_ROWS_INVALID: msg`Alcune righe non sono valide: niente è stato importato`,
  IMPORT_EMPTY: msg`Il file non contiene righe da importare`,
  IMPORT_CSV_INVALID: msg`Il file CSV non è leggibile`,
  UNKNOWN_OPERATOR: msg`Operatore sconosciuto`,
  DATABASE_UNAVAILABLE: msg`Server non raggiungibile: il database non risponde, riprova tra poco`,
  INTERNAL: msg`Errore imprevisto del server: riprova`,
}

const NETWORK = msg`Server non raggiungibile: controlla la connessione`

/** The structured issues of an INVALID_INPUT answer (src/input-issues.ts), when it carries them. */
function inputIssuesOf(error: ApiError): InputIssue[] {
  const issues = error.extra.issues
  if (error.code !== 'INVALID_INPUT' || !Array.isArray(issues)) return []
  return issues.filter((i): i is InputIssue => typeof i?.path === 'string' && INPUT_ISSUE_KINDS.includes(i.kind))
}

/** A throttled sign-in says how long to wait, in the user's words ("riprova tra 30 secondi", "in 2 minutes"). */
function throttledMessage(seconds: number): string {
  const [value, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute']
  const wait = new Intl.NumberFormat(i18n.locale, { style: 'unit', unit, unitDisplay: 'long' }).format(value)
  return i18n._(msg`Troppi tentativi falliti: riprova tra ${wait}`)
}

/** Batch completion short of a component: which one, where, how many are needed and how many are there. */
/** How much the origin holds against what the movement takes, so the person can correct the quantity. */
function insufficientStockMessage(extra: Record<string, unknown>): string {
  const available = Number(extra.available).toLocaleString(i18n.locale)
  const needed = Number(extra.needed ?? 0).toLocaleString(i18n.locale)
  const position = typeof extra.position_code === 'string' ? extra.position_code : ''
  const serial = typeof extra.serial === 'string' && extra.serial ? extra.serial : ''
  if (serial) return i18n._(msg`Giacenza insufficiente in ${position} per il seriale ${serial}: ce ne sono ${available}, ne servono ${needed}`)
  return i18n._(msg`Giacenza insufficiente in ${position}: ce ne sono ${available}, ne servono ${needed}`)
}

function shortfallMessage(extra: Record<string, unknown>): string {
  const code = String(extra.product_code)
  const position = String(extra.position_code ?? '')
  const needed = Number(extra.needed ?? 0).toLocaleString(i18n.locale)
  const available = Number(extra.available ?? 0).toLocaleString(i18n.locale)
  if (extra.position_available === false) {
    const what = typeof extra.serial === 'string' && extra.serial ? `${code} ${extra.serial}` : code
    return i18n._(msg`Impossibile completare il lotto: ${what} è in ${position}, posizione non disponibile al consumo. Chiedi al magazzino di portarlo in linea`)
  }
  return i18n._(msg`Materiale insufficiente per completare il lotto: ${code} in ${position}, servono ${needed}, ci sono ${available}. Chiedi al magazzino di portarlo in linea`)
}

/** Serial refusals on the operator's batch: which piece, which code, and whose product a wrong serial is. */
function pieceSerialMessage(error: ApiError): string | null {
  const { piece, code, serial_product_code: belongsTo, component_product_code: wanted } = error.extra
  if (typeof piece !== 'number') return null
  const serial = typeof code === 'string' ? code : ''
  switch (error.code) {
    case 'SERIAL_WRONG_PRODUCT':
      return typeof belongsTo === 'string' && typeof wanted === 'string'
        ? i18n._(msg`Pezzo ${piece}: il seriale ${serial} è del prodotto ${belongsTo}, non del componente ${wanted}`)
        : null
    case 'SERIAL_NEW_ALREADY_PRESENT':
      return i18n._(msg`Pezzo ${piece}: il codice seriale ${serial} è già usato, impossibile crearne uno nuovo`)
    case 'SERIAL_ALREADY_PRESENT':
      return i18n._(msg`Pezzo ${piece}: il codice seriale ${serial} è già usato, impossibile aggiornarlo`)
    case 'SERIALS_NOT_DECLARED':
      return serial ? i18n._(msg`Dichiara prima tutti i seriali del lotto: manca il pezzo ${piece} (${serial})`) : i18n._(msg`Dichiara prima tutti i seriali del lotto: manca il pezzo ${piece}`)
  }
  return null
}

/** A second load of a serial: which serial and where it already is. */
function serialInStockMessage(extra: Record<string, unknown>): string {
  const serial = String(extra.serial)
  const positions = Array.isArray(extra.positions) ? extra.positions.map((p: { position_code?: unknown }) => String(p?.position_code)).join(', ') : ''
  return i18n._(msg`Il seriale ${serial} è già a magazzino in ${positions}: un seriale è un solo pezzo`)
}

/**
 * An INVALID_INPUT without issues (an older server, a proxy): never the server's English text,
 * but "Dati non validi", naming the field when the message starts with a known one ("notes: ...").
 */
function invalidInputWithoutIssues(serverMessage: string): string {
  const path = /^([\w.]+):/.exec(serverMessage)?.[1]
  const label = path ? knownFieldLabel(path) : undefined
  return label ? i18n._(msg`Dati non validi: ${label}`) : i18n._(msg`Dati non validi`)
}

/** A signature refused for its PIN or badge says so (the password's wording would mislead); PIN_INVALID names the lengths. */
function pinSignatureMessage(error: ApiError): string | null {
  const { credential, min_length, max_length } = error.extra
  if (error.code === 'SIGNATURE_INVALID' && credential === 'pin') return i18n._(msg`PIN errato: il passo non è stato firmato né completato`)
  if (error.code === 'SECOND_SIGNER_INVALID' && credential === 'badge') {
    return i18n._(msg`Badge o PIN del secondo firmatario errati: il passo non è stato completato`)
  }
  if (error.code === 'PIN_INVALID' && typeof min_length === 'number' && typeof max_length === 'number') {
    return i18n._(msg`Il PIN deve avere da ${min_length} a ${max_length} cifre, solo numeri`)
  }
  return null
}

export function errorMessage(error: ApiError): string {
  if (error.code === 'NETWORK') return i18n._(NETWORK)
  const retryAfter = error.extra.retry_after
  if (error.code === 'LOGIN_THROTTLED' && typeof retryAfter === 'number' && retryAfter > 0) return throttledMessage(retryAfter)
  if (error.code === 'PRODUCTION_STOCK_SHORTFALL' && typeof error.extra.product_code === 'string') return shortfallMessage(error.extra)
  if (error.code === 'SERIAL_ALREADY_IN_STOCK' && typeof error.extra.serial === 'string') return serialInStockMessage(error.extra)
  const field = error.extra.field
  if (error.code === 'SERIAL_DATA_INVALID' && error.extra.kind === 'required' && typeof field === 'string') {
    return i18n._(msg`Il campo ${field} è obbligatorio: non può restare vuoto`)
  }
  const pinRefusal = pinSignatureMessage(error)
  if (pinRefusal) return pinRefusal
  const serialRefusal = pieceSerialMessage(error)
  if (serialRefusal) return serialRefusal
  if (error.code === 'INSUFFICIENT_STOCK' && typeof error.extra.available === 'number') return insufficientStockMessage(error.extra)
  const issues = inputIssuesOf(error)
  if (issues.length > 0) return issues.map(issueMessage).join('; ')
  if (error.code === 'INVALID_INPUT') return invalidInputWithoutIssues(error.message)
  const descriptor = MESSAGES[error.code as ErrorCode]
  return descriptor ? i18n._(descriptor) : error.message
}
