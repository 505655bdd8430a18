import { useEffect, useState } from 'preact/hooks'
import { AccountPage } from './account-page'
import { AdminPage } from './admin-page'
import { EmailPage } from './email-page'
import { BRAND, BrandMark } from './brand'
import { JoinPage } from './join-page'
import { LanguagePicker } from './language-picker'
import { ResetPage } from './reset-page'
import { SsoFinish } from './sign-in'
import { useLoad } from './use-api'
import { ActivityPage } from './activity-page'
import { api, ok } from './api'
import { FilePage } from './file-page'
import { FilesPage } from './files-page'
import { session, type Session } from './session'
import { SignIn } from './sign-in'
import { Notices, notify } from './ui'
import { NotificationsPage } from './notifications-page'
import { RequestsPage } from './requests-page'
import { RoomPage } from './room-page'
import { RoomsPage } from './rooms-page'
import { TeamsPage } from './teams-page'
import { TeamSwitcher } from './team-switcher'
import { WebhooksPage } from './webhooks-page'
import { type MessageKey, t } from './i18n'

type Route =
  | { page: 'files' }
  | { page: 'file'; id: string }
  | { page: 'rooms' }
  | { page: 'room'; id: string }
  | { page: 'requests' }
  | { page: 'webhooks' }
  | { page: 'teams' }
  | { page: 'notifications' }
  | { page: 'activity' }
  | { page: 'account' }
  | { page: 'admin' }
  | { page: 'join'; invitation: string }
  | { page: 'reset'; secret: string }
  | { page: 'email'; secret: string }
  | { page: 'sso'; code: string }

/** Hash routes (#/files, #/files/ID, #/rooms, #/rooms/ID, #/requests, #/teams, #/webhooks, #/notifications, #/activity, #/account, #/admin, #/join/SECRET, #/reset/SECRET, #/email/SECRET): the server serves one page at /app, nothing else to route. */
function routeOf(hash: string): Route {
  const file = /^#\/files\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (file) return { page: 'file', id: file[1]! }
  const room = /^#\/rooms\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (room) return { page: 'room', id: room[1]! }
  if (hash === '#/rooms') return { page: 'rooms' }
  if (hash === '#/account') return { page: 'account' }
  if (hash === '#/requests') return { page: 'requests' }
  if (hash === '#/webhooks') return { page: 'webhooks' }
  if (hash === '#/teams') return { page: 'teams' }
  if (hash === '#/notifications') return { page: 'notifications' }
  if (hash === '#/activity') return { page: 'activity' }
  if (hash === '#/admin') return { page: 'admin' }
  const join = /^#\/join\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (join) return { page: 'join', invitation: join[1]! }
  const reset = /^#\/reset\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (reset) return { page: 'reset', secret: reset[1]! }
  const email = /^#\/email\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (email) return { page: 'email', secret: email[1]! }
  const sso = /^#\/sso\/([A-Za-z0-9_-]{1,64})$/.exec(hash)
  if (sso) return { page: 'sso', code: sso[1]! }
  return { page: 'files' }
}

const TITLES: Record<Route['page'], MessageKey> = {
  files: 'title.files',
  file: 'title.files',
  rooms: 'title.rooms',
  room: 'title.rooms',
  requests: 'title.requests',
  webhooks: 'title.webhooks',
  teams: 'title.teams',
  notifications: 'title.notifications',
  activity: 'title.activity',
  account: 'title.account',
  admin: 'title.admin',
  join: 'title.join',
  reset: 'title.reset',
  email: 'title.email',
  sso: 'title.sso',
}

export function App() {
  const [current, setCurrent] = useState<Session | null>(session.current())
  const [route, setRoute] = useState(routeOf(location.hash))
  // Who is signed in, for what the navigation offers (the Admin page to admins); read again for each session.
  const me = useLoad(() => (current ? ok(api.api.me.get()) : Promise.resolve({ data: null })), [current?.token], { failure: '' }).value
  // The user's teams, for the switcher: read again for each session and after a change on the Teams page.
  const [teamsRead, setTeamsRead] = useState(0)
  const teamsLoad = useLoad(
    async () => {
      const token = current?.token
      const { data } = current?.kind === 'login' ? await ok(api.api.teams.get()) : { data: [] }
      return { data: { token, teams: data } }
    },
    [current?.token, teamsRead],
    { failure: '' },
  )
  // Settled: the list was read for this very session, so a remembered team that is not in it can be forgotten.
  const teamsSettled = !teamsLoad.loading && teamsLoad.value?.token === current?.token
  useEffect(() => session.subscribe(setCurrent), [])
  useEffect(() => {
    const onHash = () => {
      setRoute(routeOf(location.hash))
      document.getElementById('main-heading-target')?.focus()
    }
    addEventListener('hashchange', onHash)
    return () => removeEventListener('hashchange', onHash)
  }, [])
  useEffect(() => {
    document.title = `${t(TITLES[route.page])} · ${BRAND.name}`
  }, [route])

  if (route.page === 'sso') {
    return (
      <>
        <SsoFinish code={route.code} />
        <LanguagePicker hash={location.hash} />
        <Notices />
      </>
    )
  }
  if (route.page === 'reset') {
    return (
      <>
        <ResetPage secret={route.secret} />
        <LanguagePicker hash={location.hash} />
        <Notices />
      </>
    )
  }
  if (route.page === 'email') {
    return (
      <>
        <EmailPage secret={route.secret} />
        <LanguagePicker hash={location.hash} />
        <Notices />
      </>
    )
  }
  if (route.page === 'join') {
    return (
      <>
        <JoinPage invitation={route.invitation} />
        <LanguagePicker hash={location.hash} />
        <Notices />
      </>
    )
  }
  if (!current) {
    return (
      <>
        <SignIn />
        <LanguagePicker hash={location.hash} />
        <Notices />
      </>
    )
  }

  const signOut = async () => {
    // A sign-in session's token is revoked, so a copy of it left anywhere is worthless. A pasted API token
    // is left alone: scripts may use it too.
    if (current.kind === 'login' && current.tokenId) {
      await ok(api.api.tokens({ id: current.tokenId }).delete()).catch(() => notify('error', t('app.revokeFailed')))
    }
    session.end()
    notify('ok', t('app.signedOut'))
  }

  return (
    <>
      <a class="skip" href="#content">
        {t('app.skip')}
      </a>
      <header class="top">
        <a class="brand" href="#/files">
          <BrandMark />
        </a>
        <nav aria-label={t('nav.label')}>
          <a href="#/files" aria-current={route.page === 'files' || route.page === 'file' ? 'page' : undefined}>
            {t('nav.files')}
          </a>
          <a href="#/rooms" aria-current={route.page === 'rooms' || route.page === 'room' ? 'page' : undefined}>
            {t('nav.rooms')}
          </a>
          <a href="#/requests" aria-current={route.page === 'requests' ? 'page' : undefined}>
            {t('nav.requests')}
          </a>
          <a href="#/notifications" aria-current={route.page === 'notifications' ? 'page' : undefined}>
            {t('nav.notifications')}
          </a>
          <a href="#/teams" aria-current={route.page === 'teams' ? 'page' : undefined}>
            {t('nav.teams')}
          </a>
          <a href="#/webhooks" aria-current={route.page === 'webhooks' ? 'page' : undefined}>
            {t('nav.webhooks')}
          </a>
          <a href="#/activity" aria-current={route.page === 'activity' ? 'page' : undefined}>
            {t('nav.activity')}
          </a>
          <a href="#/account" aria-current={route.page === 'account' ? 'page' : undefined}>
            {t('nav.account')}
          </a>
          {me?.admin && (
            <a href="#/admin" aria-current={route.page === 'admin' ? 'page' : undefined}>
              {t('nav.admin')}
            </a>
          )}
        </nav>
        <TeamSwitcher current={current} teams={teamsLoad.value?.teams ?? null} settled={teamsSettled} />
        <span class="who">{current.name}</span>
        <button type="button" onClick={signOut}>
          {t('app.signOut')}
        </button>
      </header>
      {/* Acting for another owner shows another owner's things: every page is read again. */}
      <div id="content" tabIndex={-1} key={current.team?.id ?? 'personal'}>
        <span id="main-heading-target" tabIndex={-1} />
        {route.page === 'files' && <FilesPage />}
        {route.page === 'file' && <FilePage key={route.id} id={route.id} />}
        {route.page === 'rooms' && <RoomsPage />}
        {route.page === 'room' && <RoomPage key={route.id} id={route.id} />}
        {route.page === 'requests' && <RequestsPage />}
        {route.page === 'webhooks' && <WebhooksPage />}
        {route.page === 'teams' && <TeamsPage onChanged={() => setTeamsRead((n) => n + 1)} />}
        {route.page === 'notifications' && <NotificationsPage />}
        {route.page === 'activity' && <ActivityPage />}
        {route.page === 'account' && <AccountPage />}
        {route.page === 'admin' && (me?.admin ? <AdminPage me={me.name} /> : <p>{me ? t('app.adminOnly') : t('common.loading')}</p>)}
      </div>
      <LanguagePicker hash={location.hash} />
      <Notices />
    </>
  )
}
