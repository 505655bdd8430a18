import { expect, test } from 'bun:test'
import { run } from '../../scripts/support/process'
import { json, startTestApp } from '../support/harness'
import { addLink } from '../support/links'
import { uploadPdf } from '../support/uploads'
import { FIREFOX } from '../support/user-agents'

// The operator's `reader erase`: a reader who asks the instance's operator to be forgotten.
const server = await startTestApp()
const cli = (...args: string[]) =>
  run([...args, '--data', server.dataDir], { env: { PDFSHARE_PUBLIC_URL: 'https://pdf.example.test/base' } })

/** A reader gives `address` at the link's gate and opens the page once. */
async function readAs(path: string, address: string) {
  const entered = await server.call('POST', `${path}/reader`, {
    headers: { 'user-agent': FIREFOX, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: address }).toString(),
  })
  const cookie = entered.headers.getSetCookie()[0]!.split(';')[0]!
  expect((await server.call('GET', path, { headers: { 'user-agent': FIREFOX, cookie } })).status).toBe(200)
}

test("reader erase ADDRESS: from one user's files with --user, from every file without; bad input says how", async () => {
  const alice = await server.user('alice')
  const bob = await server.user('bob')
  const aliceLink = await addLink(server, (await uploadPdf(server, alice)).id, { access: 'email' })
  const bobLink = await addLink(server, (await uploadPdf(server, bob)).id, { access: 'email' })
  await readAs(aliceLink.path, 'ann@example.test')
  await readAs(bobLink.path, 'ann@example.test')
  const readersOf = async (linkId: string, token: string) =>
    (await json(await server.call('GET', `/api/links/${linkId}/visits`, { token }))).data.map((visit: { reader: string }) => visit.reader)

  const mine = await cli('reader', 'erase', 'Ann@example.test', '--user', 'alice')
  expect(mine.code).toBe(0)
  expect(mine.stdout).toContain("erased ann@example.test from 1 visits and 0 acceptances of alice's files, 0 reader events")
  expect(await readersOf(aliceLink.id, alice.token)).toEqual([null])
  expect(await readersOf(bobLink.id, bob.token)).toEqual(['ann@example.test'])

  const everyone = await cli('reader', 'erase', 'ann@example.test')
  expect(everyone.code).toBe(0)
  expect(everyone.stdout).toContain('from 1 visits and 0 acceptances of every file')
  expect(await readersOf(bobLink.id, bob.token)).toEqual([null])

  const notAnAddress = await cli('reader', 'erase', 'ann')
  expect(notAnAddress.code).toBe(2)
  expect(notAnAddress.stderr).toContain('address must be an email address')
  const nobody = await cli('reader', 'erase', 'ann@example.test', '--user', 'carol')
  expect(nobody.code).toBe(1)
  expect(nobody.stderr).toContain('carol')
  expect((await cli('reader', 'forget', 'ann@example.test')).stderr).toContain('unknown command "reader forget"')
})
