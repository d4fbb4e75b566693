import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ErrorCode } from '../../src/errors'
import type { ApiError } from './api-error'
import { i18n } from './i18n'

/** What the user reads for each server error code; the record type forces every code to be translated. */
const MESSAGES: Record<ErrorCode, MessageDescriptor | null> = {
  INVALID_INPUT: null, // the server's message names the field
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
  USERNAME_REQUIRED: msg`Username obbligatorio`,
  PERMISSION_REQUIRED: msg`Seleziona almeno un permesso`,
  INVALID_IMAGE: msg`Il file non è un'immagine valida`,
  LOGO_NOT_SQUARE: msg`Il logo deve essere quadrato (proporzioni 1:1)`,
  OPERATOR_HOURLY_COST_NEGATIVE: msg`Il costo orario dell'operatore deve essere maggiore o uguale a 0`,
  RELEASE_BATCH_QT_REQUIRED: msg`Con lo stile di rilascio "lotto di rilascio" la quantità del lotto di rilascio deve essere maggiore di 0`,
  DEPARTMENT_CODE_TAKEN: msg`Codice reparto già in uso`,
  DEPARTMENT_IN_USE: msg`Il reparto è assegnato ad alcuni utenti e non può essere eliminato`,
  API_TOKEN_DESCRIPTION_REQUIRED: msg`Il token API richiede una descrizione`,
  API_TOKEN_EXPIRATION_REQUIRED: msg`Il token API richiede una scadenza`,
  API_TOKEN_EXPIRATION_PAST: msg`La scadenza deve essere nel futuro`,
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
  ISSUE_TYPE_CODE_REQUIRED: msg`Codice del tipo di segnalazione obbligatorio`,
  ISSUE_TYPE_NAME_REQUIRED: msg`Nome del tipo di segnalazione obbligatorio`,
  ISSUE_TYPE_CODE_TAKEN: msg`Codice del tipo di segnalazione già in uso`,
  ISSUE_TYPE_IN_USE: msg`Tipo di segnalazione in uso: non può essere eliminato`,
  PRODUCT_CODE_REQUIRED: msg`Il codice del prodotto è obbligatorio`,
  PRODUCT_CODE_TAKEN: msg`Codice prodotto già in uso`,
  PRODUCT_IN_TRASH: msg`Il prodotto è nel cestino: ripristinalo prima di modificarlo`,
  METADATA_VALUE_INVALID: msg`Valore non valido per un campo personalizzato`,
  DOC_EXISTS: msg`Esiste già un documento con questo nome`,
  UNSUPPORTED_FILE_TYPE: msg`Tipo di file non ammesso: carica PDF, immagini, documenti Office/OpenDocument o file di testo (TXT, CSV)`,
  UNKNOWN_FILE: msg`File inesistente: caricalo di nuovo`,
  FILE_IN_USE: msg`Il file è ancora usato dai dati del prodotto`,
  PHASE_HAS_COMPONENTS: msg`Una fase con componenti non può essere eliminata`,
  UNKNOWN_OPERATION: msg`Operazione inesistente`,
  UNKNOWN_PHASE: msg`Fase inesistente`,
  UNKNOWN_PRODUCT: msg`Prodotto inesistente`,
  PROCESS_COPY_SELF: msg`Non puoi copiare il processo di un prodotto su sé stesso`,
  PROCESS_COPY_EMPTY: msg`Il prodotto scelto non ha fasi da copiare`,
  STEP_MEDIA_NAME_TAKEN: msg`Al passo è già allegato un file con questo nome`,
  BOM_QUANTITY_NOT_POSITIVE: msg`La quantità deve essere positiva`,
  BOM_ITEM_REPEATED: msg`Un articolo non può ripetersi in una fase`,
  BOM_ITEM_INACTIVE: msg`Il componente non è un prodotto attivo`,
  BOM_CYCLE: msg`Il prodotto conterrebbe sé stesso attraverso i suoi componenti`,
  INTERNAL: msg`Errore imprevisto del server: riprova`,
}

const NETWORK = msg`Server non raggiungibile: controlla la connessione`

export function errorMessage(error: ApiError): string {
  if (error.code === 'NETWORK') return i18n._(NETWORK)
  const descriptor = MESSAGES[error.code as ErrorCode]
  return descriptor ? i18n._(descriptor) : error.message
}
