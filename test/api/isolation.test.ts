import { expect, test } from 'bun:test'
import { form, json, startTestApp } from '../support/harness'
import { makePdf } from '../support/pdf'

const server = await startTestApp()
const alice = await server.user('alice')
const mallory = await server.user('mallory')
const pdf = makePdf()

test("no endpoint lets one user see or touch another user's file, and none reveals that it exists", async () => {
  const file = (await json(await server.call('POST', '/api/files/upload', { token: alice.token, body: form({ bytes: pdf }, { title: 'secret' }) }))).data
  const unknownId = 'AAAAAAAAAAAAAAAAAAAAAA'

  const attempts = (id: string) => [
    server.call('GET', `/api/files/${id}`, { token: mallory.token }),
    server.call('GET', `/api/files/${id}/content`, { token: mallory.token }),
    server.call('PUT', `/api/files/${id}`, { token: mallory.token, body: JSON.stringify({ title: 'pwned' }), headers: { 'content-type': 'application/json' } }),
    server.call('PUT', `/api/files/${id}`, { token: mallory.token, body: form({ bytes: pdf }, { title: 'pwned' }) }),
    server.call('DELETE', `/api/files/${id}`, { token: mallory.token }),
  ]
  const foreign = await Promise.all(attempts(file.id))
  const missing = await Promise.all(attempts(unknownId))
  for (let i = 0; i < foreign.length; i++) {
    expect(foreign[i]!.status).toBe(404)
    expect(await foreign[i]!.text()).toBe(await missing[i]!.text())
  }

  const list = await json(await server.call('GET', '/api/files', { token: mallory.token }))
  expect(list.data).toEqual([])
  const me = await json(await server.call('GET', '/api/me', { token: mallory.token }))
  expect(me.data.usage).toEqual({ files: 0, bytes: 0 })

  // Alice's file is untouched.
  const after = await json(await server.call('GET', `/api/files/${file.id}`, { token: alice.token }))
  expect(after.data).toEqual(file)
  const bytes = new Uint8Array(await (await server.call('GET', `/api/files/${file.id}/content`, { token: alice.token })).arrayBuffer())
  expect(bytes).toEqual(pdf)
})
