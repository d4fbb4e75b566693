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
  INTERNAL: msg`Errore imprevisto del server: riprova`,
}

const NETWORK = msg`Server non raggiungibile: controlla la connessione`

export function errorMessage(error: ApiError): string {
  if (error.code === 'NETWORK') return i18n._(NETWORK)
  const descriptor = MESSAGES[error.code as ErrorCode]
  return descriptor ? i18n._(descriptor) : error.message
}
