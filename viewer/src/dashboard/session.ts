/**
 * The signed-in state. The token lives in sessionStorage (this tab only, gone when it closes), never in a
 * cookie or localStorage: the API takes bearer tokens only, so there is nothing for a cross-site request
 * to ride on.
 */
const KEY = 'pdfshare.session'

/** The team this tab acts for (docs/teams.md, The dashboard): its team session token, opened from the sign-in session. */
export type TeamSession = { id: string; name: string; role: 'owner' | 'editor' | 'viewer'; token: string }

/**
 * `login`: a dashboard session token, revoked on sign-out; `pasted`: an API token, which sign-out leaves alone.
 * `team`: the team this tab acts for, if any; its token ends with the session's.
 */
export type Session = { token: string; tokenId: string | null; name: string; kind: 'login' | 'pasted'; team?: TeamSession | null }

/** Which team this browser last acted for, by id (localStorage: remembered across tabs and sign-ins, never a token). */
const TEAM_KEY = 'pdfshare.team'

/**
 * The API paths that act for the person whoever the tab acts for: their account, tokens, sign-in, audit log, the
 * admin's pages, and the teams themselves (managed with the personal session). Every other path (files, links,
 * rooms, requests, analytics, webhooks, notifications) goes with the team session while the tab acts for a team.
 */
const PERSONAL_PATHS = /^\/api\/(me|tokens|auth|admin|audit|teams|passkeys|two-factor)(\/|$|\?)/

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
  /** The token for a request to `path` (under /api): the team session's while acting for a team, unless the path is personal. */
  tokenFor(path: string): string | null {
    const current = read()
    if (!current) return null
    return current.team && !PERSONAL_PATHS.test(path) ? current.team.token : current.token
  },
  /** Acts for `team` from now on (null: personal), and remembers the choice for this browser. */
  actFor(team: TeamSession | null) {
    const current = read()
    if (!current) return
    if (team) localStorage.setItem(TEAM_KEY, team.id)
    else localStorage.removeItem(TEAM_KEY)
    write({ ...current, team })
  },
  /**
   * Whether this tab may change things: not while it acts for a team as a viewer. The pages hide what a viewer
   * cannot use; the API refuses it anyway (403 insufficient_scope).
   */
  mayChange: () => read()?.team?.role !== 'viewer',
  /** The team this browser last acted for, if any. */
  rememberedTeam: () => localStorage.getItem(TEAM_KEY),
  /**
   * The server refused a request: the team session when it went with one (the user left the team, or their
   * role went), which takes the tab back to personal; else the session itself.
   */
  refused(path: string) {
    const current = read()
    if (current?.team && !PERSONAL_PATHS.test(path)) {
      localStorage.removeItem(TEAM_KEY)
      write({ ...current, team: null })
      return
    }
    this.expired()
  },
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
