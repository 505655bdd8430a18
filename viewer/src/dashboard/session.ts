/**
 * The signed-in state. The token lives in sessionStorage (this tab only, gone when it closes), never in a
 * cookie or localStorage: the API takes bearer tokens only, so there is nothing for a cross-site request
 * to ride on.
 */
const KEY = 'pdfshare.session'

/** `login`: a dashboard session token, revoked on sign-out; `pasted`: an API token, which sign-out leaves alone. */
export type Session = { token: string; tokenId: string | null; name: string; kind: 'login' | 'pasted' }

type Listener = (current: Session | null) => void
const listeners = new Set<Listener>()
let expiredNotice = false

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY)
    return raw ? (JSON.parse(raw) as Session) : null
  } catch {
    return null
  }
}

function write(value: Session | null) {
  if (value) sessionStorage.setItem(KEY, JSON.stringify(value))
  else sessionStorage.removeItem(KEY)
  for (const listener of listeners) listener(value)
}

/** The `jti` of a JWT, read without verifying (the server verifies); null when it is not a JWT. */
export function tokenIdOf(token: string): string | null {
  try {
    const payload = token.split('.')[1] ?? ''
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'))
    const jti = (JSON.parse(json) as { jti?: unknown }).jti
    return typeof jti === 'string' ? jti : null
  } catch {
    return null
  }
}

export const session = {
  current: read,
  token: () => read()?.token ?? null,
  start(value: Session) {
    expiredNotice = false
    write(value)
  },
  /** A sign-in's answer (password, passkey, single sign-on, invitation, reset) as this tab's session. */
  signedIn(answer: { token: string; tokenId: string; user: { name: string } }) {
    this.start({ token: answer.token, tokenId: answer.tokenId, name: answer.user.name, kind: 'login' })
  },
  /**
   * The same on a page whose address holds a one-time secret (#/join, #/reset, #/sso): the secret leaves the
   * address bar and the history, and the app goes to the files (replaceState fires no hashchange of its own).
   */
  signedInLeaving(answer: { token: string; tokenId: string; user: { name: string } }) {
    history.replaceState(null, '', '#/files')
    this.signedIn(answer)
    dispatchEvent(new HashChangeEvent('hashchange'))
  },
  end() {
    write(null)
  },
  /** The server refused the token (expired or revoked): back to the sign-in page, saying why. */
  expired() {
    expiredNotice = true
    write(null)
  },
  takeExpiredNotice() {
    const was = expiredNotice
    expiredNotice = false
    return was
  },
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
}
