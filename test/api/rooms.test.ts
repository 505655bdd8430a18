import { describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import type { LinkDto } from '../../src/routes/links/model'
import type { RoomDto } from '../../src/routes/rooms/model'
import { ROOM_LIMITS } from '../../src/shared/room-shapes'
import { json, startTestApp } from '../support/harness'
import { uploadPdf } from '../support/uploads'

type Caller = { token: string }

const server = await startTestApp()
const { rooms, roomItems, links } = server.ctx.db.tables

const send = (method: string, path: string, user: Caller, body?: unknown) =>
  server.call(method, path, {
    token: user.token,
    body: body === undefined ? null : JSON.stringify(body),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
  })

async function ok<T>(answer: Response | Promise<Response>, status = 200): Promise<T> {
  const response = await answer
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}

async function refused(response: Response, status: number, code: string): Promise<string> {
  const body = await json(response)
  expect({ status: response.status, success: body.success, code: body.code }).toEqual({ status, success: false, code })
  return body.error
}

const newRoom = (user: Caller, body: unknown) => ok<RoomDto>(send('POST', '/api/rooms', user, body), 201)
const roomRows = async () => Number((await server.ctx.db.orm.select({ n: sql`count(*)` }).from(rooms))[0]?.n)
const itemsOf = async (roomId: string) =>
  (await server.ctx.db.orm.select().from(roomItems).where(eq(roomItems.roomId, roomId))).sort((a, b) => a.position - b.position)

describe('rooms', () => {
  test("a room holds the owner's files in folders, in order, with a default link; GET, list (paged), PUT, DELETE", async () => {
    const alice = await server.user()
    const [a, b, c] = [await uploadPdf(server, alice), await uploadPdf(server, alice), await uploadPdf(server, alice)]
    const room = await newRoom(alice, {
      name: 'Board pack',
      description: 'Q3',
      items: [{ fileId: b.id, folder: 'Financials/2025' }, { fileId: a.id }, { fileId: c.id, folder: 'Legal' }],
    })
    expect(room).toMatchObject({ name: 'Board pack', description: 'Q3', views: 0 })
    expect(room.items.map((item) => [item.fileId, item.folder])).toEqual([
      [b.id, 'Financials/2025'],
      [a.id, ''],
      [c.id, 'Legal'],
    ])
    expect(room.items[0]).toMatchObject({ title: b.title, filename: b.filename, fileSize: b.fileSize })
    expect(room.shareUrl).toStartWith('https://pdf.example.test/base/s/')
    expect(await ok<RoomDto>(send('GET', `/api/rooms/${room.id}`, alice))).toEqual(room)

    // The default link is a row of links with the room's id: the link routes show it like a file's.
    const [defaultLink] = await ok<LinkDto[]>(send('GET', `/api/rooms/${room.id}/links`, alice))
    expect(defaultLink).toMatchObject({ roomId: room.id, fileId: null, isDefault: true, url: room.shareUrl })

    // PUT: omitted fields stay, items replace the list in the order sent.
    const changed = await ok<RoomDto>(
      send('PUT', `/api/rooms/${room.id}`, alice, { items: [{ fileId: c.id, folder: 'Top' }, { fileId: a.id }] }),
    )
    expect(changed).toMatchObject({ name: 'Board pack', description: 'Q3' })
    expect(changed.items.map((item) => [item.fileId, item.folder])).toEqual([
      [c.id, 'Top'],
      [a.id, ''],
    ])
    expect(changed.updatedAt > room.updatedAt).toBe(true)
    const renamed = await ok<RoomDto>(send('PUT', `/api/rooms/${room.id}`, alice, { name: 'Board' }))
    expect(renamed.items).toEqual(changed.items)

    // Paged newest first, like the files list.
    const second = await newRoom(alice, { name: 'Second' })
    const page1 = await json(await send('GET', '/api/rooms?limit=1', alice))
    expect(page1.data.map((r: RoomDto) => r.id)).toEqual([second.id])
    const page2 = await json(await send('GET', `/api/rooms?limit=1&cursor=${page1.nextCursor}`, alice))
    expect(page2.data.map((r: RoomDto) => r.id)).toEqual([room.id])
    expect(page2.nextCursor).toBeNull()
    await refused(await send('GET', '/api/rooms?cursor=bm9wZQ', alice), 400, 'invalid_request')

    // Deleting a file takes it out of the room; deleting the room keeps its files and ends its links.
    await ok(send('DELETE', `/api/files/${c.id}`, alice))
    expect((await ok<RoomDto>(send('GET', `/api/rooms/${room.id}`, alice))).items.map((item) => item.fileId)).toEqual([a.id])
    await ok(send('DELETE', `/api/rooms/${room.id}`, alice))
    await refused(await send('GET', `/api/rooms/${room.id}`, alice), 404, 'not_found')
    expect(await server.ctx.db.orm.select().from(links).where(eq(links.roomId, room.id))).toEqual([])
    await ok(send('GET', `/api/files/${a.id}`, alice))
  })

  test("another user's file in items is a 404 and nothing is written (POST and PUT)", async () => {
    const alice = await server.user()
    const mallory = await server.user()
    const own = await uploadPdf(server, mallory)
    const theirs = await uploadPdf(server, alice)
    const before = await roomRows()
    await refused(
      await send('POST', '/api/rooms', mallory, { name: 'Grab', items: [{ fileId: own.id }, { fileId: theirs.id }] }),
      404,
      'not_found',
    )
    expect(await roomRows()).toBe(before)

    const room = await newRoom(mallory, { name: 'Mine', items: [{ fileId: own.id, folder: 'A' }] })
    await refused(
      await send('PUT', `/api/rooms/${room.id}`, mallory, { name: 'Renamed', items: [{ fileId: theirs.id }, { fileId: own.id }] }),
      404,
      'not_found',
    )
    expect(await itemsOf(room.id)).toEqual([{ roomId: room.id, fileId: own.id, folder: 'A', position: 0 }])
    expect((await ok<RoomDto>(send('GET', `/api/rooms/${room.id}`, mallory))).name).toBe('Mine')
    // An id that is nobody's is refused alike.
    await refused(await send('PUT', `/api/rooms/${room.id}`, mallory, { items: [{ fileId: 'nope' }] }), 404, 'not_found')
    expect(await itemsOf(room.id)).toHaveLength(1)
  })

  test("another user's room is a 404 on every route, and nothing changes", async () => {
    const alice = await server.user()
    const mallory = await server.user()
    const file = await uploadPdf(server, alice)
    const room = await newRoom(alice, { name: 'Private', items: [{ fileId: file.id }] })
    await refused(await send('GET', `/api/rooms/${room.id}`, mallory), 404, 'not_found')
    await refused(await send('PUT', `/api/rooms/${room.id}`, mallory, { name: 'Taken', items: [] }), 404, 'not_found')
    await refused(await send('DELETE', `/api/rooms/${room.id}`, mallory), 404, 'not_found')
    await refused(await send('GET', `/api/rooms/${room.id}/links`, mallory), 404, 'not_found')
    await refused(await send('POST', `/api/rooms/${room.id}/links`, mallory, { label: 'mine' }), 404, 'not_found')
    expect((await json(await send('GET', '/api/rooms', mallory))).data).toEqual([])
    const [link] = await ok<LinkDto[]>(send('GET', `/api/rooms/${room.id}/links`, alice))
    await refused(await send('PATCH', `/api/links/${link!.id}`, mallory, { disabled: true }), 404, 'not_found')
    expect(await ok<RoomDto>(send('GET', `/api/rooms/${room.id}`, alice))).toEqual(room)
    expect(await ok<LinkDto>(send('GET', `/api/links/${link!.id}`, alice))).toMatchObject({ disabled: false })
  })

  test('folders, names and items are checked; a refusal writes nothing', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const other = await uploadPdf(server, alice)
    const room = await newRoom(alice, { name: 'Checked', items: [{ fileId: file.id, folder: 'Keep' }] })
    const badFolders = [
      '..',
      'a/../b',
      '/lead',
      'trail/',
      'a//b',
      ' a',
      'tab\there',
      'bell\u0007',
      'back\\slash',
      'rtl\u202Eevil',
      'x'.repeat(ROOM_LIMITS.folderPart + 1),
      Array(ROOM_LIMITS.folderDepth + 1)
        .fill('d')
        .join('/'),
    ]
    for (const folder of badFolders) {
      await refused(await send('PUT', `/api/rooms/${room.id}`, alice, { items: [{ fileId: other.id, folder }] }), 400, 'invalid_request')
    }
    await refused(
      await send('PUT', `/api/rooms/${room.id}`, alice, { items: [{ fileId: other.id }, { fileId: other.id }] }),
      400,
      'invalid_request',
    )
    for (const name of ['', '   ', 'a\u0000b', 'n'.repeat(ROOM_LIMITS.name + 1)]) {
      await refused(await send('POST', '/api/rooms', alice, { name }), 400, 'invalid_request')
    }
    await refused(await send('POST', '/api/rooms', alice, {}), 400, 'invalid_request')
    expect(await itemsOf(room.id)).toEqual([{ roomId: room.id, fileId: file.id, folder: 'Keep', position: 0 }])
    // What is allowed: nested folders, names with spaces inside, any script.
    const fine = await ok<RoomDto>(
      send('PUT', `/api/rooms/${room.id}`, alice, { items: [{ fileId: other.id, folder: 'Due diligence/2025 Q3/Verträge' }] }),
    )
    expect(fine.items[0]?.folder).toBe('Due diligence/2025 Q3/Verträge')
  })
})

describe("a room's links", () => {
  test('every control a file link has; changed and deleted through /api/links/:linkId; the default link stays', async () => {
    const alice = await server.user()
    const file = await uploadPdf(server, alice)
    const room = await newRoom(alice, { name: 'Linked', items: [{ fileId: file.id }] })
    const settings = {
      label: 'Investors',
      password: 'open sesame',
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      maxViews: 10,
      access: 'email',
      allow: ['@fund.example'],
      deny: ['leaker@fund.example'],
      agreement: 'Keep it secret.',
      notify: 'daily',
      watermark: '{email}',
      allowDownload: false,
      searchEngineVisible: false,
      embedOrigins: ['https://portal.example'],
    }
    const link = await ok<LinkDto>(send('POST', `/api/rooms/${room.id}/links`, alice, settings), 201)
    expect(link).toMatchObject({
      roomId: room.id,
      fileId: null,
      isDefault: false,
      label: 'Investors',
      hasPassword: true,
      maxViews: 10,
      access: 'email',
      allow: ['@fund.example'],
      deny: ['leaker@fund.example'],
      agreement: 'Keep it secret.',
      agreementVersion: 1,
      notify: 'daily',
      watermark: '{email}',
      allowDownload: false,
      embedOrigins: ['https://portal.example'],
      state: 'active',
    })
    const listed = await ok<LinkDto[]>(send('GET', `/api/rooms/${room.id}/links`, alice))
    expect(listed.map((l) => [l.isDefault, l.id])).toEqual([
      [true, listed[0]!.id],
      [false, link.id],
    ])
    expect(await ok<LinkDto>(send('PATCH', `/api/links/${link.id}`, alice, { disabled: true, label: 'Closed' }))).toMatchObject({
      disabled: true,
      label: 'Closed',
      state: 'disabled',
      roomId: room.id,
    })
    // Its analytics and acceptances are the owner's, like a file link's (another user: 404).
    await ok(send('GET', `/api/links/${link.id}/analytics`, alice))
    expect(await ok(send('GET', `/api/links/${link.id}/acceptances`, alice))).toBeDefined()
    const mallory = await server.user()
    await refused(await send('GET', `/api/links/${link.id}/analytics`, mallory), 404, 'not_found')
    await refused(await send('GET', `/api/links/${link.id}/acceptances`, mallory), 404, 'not_found')
    await refused(await send('DELETE', `/api/links/${listed[0]!.id}`, alice), 409, 'conflict')
    expect(await ok(send('DELETE', `/api/links/${link.id}`, alice))).toEqual({ id: link.id })
    await refused(await send('GET', `/api/links/${link.id}`, alice), 404, 'not_found')
    // A room's link is not a file's: the file share routes do not serve it.
    const slug = new URL(room.shareUrl).pathname.split('/').pop()
    expect((await server.call('GET', `/s/${slug}/file`)).status).toBe(404)
  })
})
