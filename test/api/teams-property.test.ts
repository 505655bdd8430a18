import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { issueToken } from '../../src/core/accounts/tokens/issue-token'
import { revokeOwnToken } from '../../src/core/accounts/tokens/revoke-token'
import { ROLE_SCOPES, type TeamRole } from '../../src/core/teams/roles'
import { type Scope, SCOPES } from '../../src/shared/account-shapes'
import { startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

// Property (docs/teams.md): over role × token scopes × route × owner kind, a request never does more than both
// the role and the scopes allow, and a personal file is never reached by anyone but its owner.
const server = await startTestApp()
const people = { ann: await server.user('ann'), ben: await server.user('ben'), cy: await server.user('cy') }
type Person = keyof typeof people
const ROLES: Record<Person, TeamRole> = { ann: 'owner', ben: 'editor', cy: 'viewer' }

const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })
const created = await server.call('POST', '/api/teams', { token: people.ann.token, ...jsonBody({ name: 'Property' }) })
const teamId: string = (await created.json()).data.id
for (const name of ['ben', 'cy'] as const) {
  const added = await server.call('POST', `/api/teams/${teamId}/members`, {
    token: people.ann.token,
    ...jsonBody({ username: name, role: ROLES[name] }),
  })
  expect(added.status).toBe(201)
}

/** A token: the person's own (personal) or for the team, with these scopes, as the CLI issues it. */
async function tokenOf(person: Person, kind: 'personal' | 'team', scopes: readonly Scope[]) {
  const teamOption = kind === 'team' ? { teamId } : {}
  return issueToken(server.ctx, { userName: people[person].name, label: 'prop', ttlSeconds: 600, scopes: new Set(scopes), ...teamOption })
}

type Owner = Person | 'team'
/** A file of each owner: the people's own, and the team's (uploaded by ann's unrestricted team token). */
const annTeam = await tokenOf('ann', 'team', SCOPES)
async function fileOf(owner: Owner): Promise<string> {
  return (await uploadPdf(server, owner === 'team' ? { token: annTeam.jwt } : people[owner])).id
}
const files: Record<Owner, string> = {
  ann: await fileOf('ann'),
  ben: await fileOf('ben'),
  cy: await fileOf('cy'),
  team: await fileOf('team'),
}

/** The routes tried: what each needs, and its request for a file (a DELETE gets a file of its own). */
type Route = { need: Scope; method: string; path: (file: string) => string; body?: unknown; fresh?: boolean }
const ROUTES: Record<string, Route> = {
  'GET file': { need: 'files:read', method: 'GET', path: (id) => `/api/files/${id}` },
  'GET content': { need: 'files:read', method: 'GET', path: (id) => `/api/files/${id}/content` },
  'GET versions': { need: 'files:read', method: 'GET', path: (id) => `/api/files/${id}/versions` },
  'GET links': { need: 'files:read', method: 'GET', path: (id) => `/api/files/${id}/links` },
  'PUT title': { need: 'files:write', method: 'PUT', path: (id) => `/api/files/${id}`, body: { title: 'changed' } },
  'DELETE file': { need: 'files:write', method: 'DELETE', path: (id) => `/api/files/${id}`, fresh: true },
  'POST link': { need: 'links:write', method: 'POST', path: (id) => `/api/files/${id}/links`, body: { label: 'prop' } },
  'GET analytics': { need: 'analytics:read', method: 'GET', path: (id) => `/api/files/${id}/analytics` },
  'GET visits': { need: 'analytics:read', method: 'GET', path: (id) => `/api/files/${id}/visits` },
  'POST move out': { need: 'files:write', method: 'POST', path: (id) => `/api/files/${id}/move`, body: { team: null } },
  'GET members': { need: 'files:read', method: 'GET', path: () => `/api/teams/${teamId}/members` },
  'PATCH team': { need: 'teams:write', method: 'PATCH', path: () => `/api/teams/${teamId}`, body: { name: 'Property' } },
}

/** What the request must answer: the scope first, then what only a team's owner may do, then whose the file is. */
function expected(route: string, person: Person, kind: 'personal' | 'team', scopes: readonly Scope[], owner: Owner): string {
  const { need } = ROUTES[route]!
  const role = ROLES[person]
  const effective = kind === 'team' ? scopes.filter((scope) => ROLE_SCOPES[role].has(scope)) : scopes
  if (!effective.includes(need)) return '403 insufficient_scope'
  if (route === 'GET members') return 'ok'
  if (route === 'PATCH team') return role === 'owner' ? 'ok' : '403 team_owner_only'
  // Taking files out of a team is its owners' (refused before any file is looked up: it tells nothing of the file).
  if (route === 'POST move out' && kind === 'team' && role !== 'owner') return '403 team_owner_only'
  const reaches = kind === 'team' ? owner === 'team' : owner === person
  return reaches ? 'ok' : '404 not_found'
}

test('property: role × token scopes × route × owner kind: never more than both role and scopes allow; a personal file is only its owner’s', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(ROUTES)),
      fc.constantFrom<Person>('ann', 'ben', 'cy'),
      fc.constantFrom<'personal' | 'team'>('personal', 'team'),
      fc.subarray([...SCOPES], { minLength: 1 }),
      fc.constantFrom<Owner>('ann', 'ben', 'cy', 'team'),
      async (route, person, kind, scopes, owner) => {
        const { method, path, body, fresh } = ROUTES[route]!
        const issued = await tokenOf(person, kind, scopes)
        const file = fresh ? await fileOf(owner) : files[owner]
        const response = await server.call(method, path(file), { token: issued.jwt, ...(body === undefined ? {} : jsonBody(body)) })
        const text = await response.text()
        const got = response.status < 300 ? 'ok' : `${response.status} ${JSON.parse(text).code}`
        const label = `${route} by ${person}'s ${kind} token [${scopes}] on ${owner}'s file`
        expect(`${label} → ${got}`).toBe(`${label} → ${expected(route, person, kind, scopes, owner)}`)
        // Moving out answered ok only where the file already was its token's own (a no-op) or a team owner took it
        // back: put a team file back, so the next runs find it where they expect it.
        if (route === 'POST move out' && got === 'ok' && owner === 'team') {
          const back = await server.call('POST', `/api/files/${file}/move`, { token: people[person].token, ...jsonBody({ team: teamId }) })
          expect(back.status).toBe(200)
        }
        await revokeOwnToken(server.ctx, { userId: people[person].id, id: issued.token.id })
      },
    ),
    { numRuns: 300 },
  )
}, 180_000)
