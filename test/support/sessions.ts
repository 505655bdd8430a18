import { expect } from 'bun:test'
import { addUser, setPassword } from '../../src/core/accounts/users/users'
import { DomainError } from '../../src/errors'
import type { TestServer } from './harness'

/** The password the helpers below give a user. */
export const PASSWORD = 'a long enough password'

export const jsonBody = (value: unknown) => ({ body: JSON.stringify(value), headers: { 'content-type': 'application/json' } })

/**
 * A dashboard session of `name`, from a password sign-in (the user gets `password` first): what may change how
 * the account signs in, with the password sent again. `server.user` gives API tokens, which never may. A user of
 * that name is added first when there is none.
 */
export async function sessionOf(server: TestServer, name: string, password = PASSWORD): Promise<string> {
  await addUser(server.ctx, { name }).catch((error: unknown) => {
    if (!(error instanceof DomainError)) throw error // already there
  })
  await setPassword(server.ctx, { name, password })
  const response = await server.call('POST', '/api/auth/login', jsonBody({ username: name, password }))
  const text = await response.text()
  expect(response.status, text).toBe(200)
  return JSON.parse(text).data.token
}
