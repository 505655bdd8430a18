import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ERROR_CODES } from '../../src/errors'
import { HTTP_STATUS } from '../../src/http/failure'

// The table "Status codes and error codes" in docs/api.md is what clients read; the mapping must say the same.
const readme = readFileSync(join(import.meta.dir, '../../docs/api.md'), 'utf8')
const documented = [...readme.matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|/gm)].map(([, status, code]) => ({ status: Number(status), code }))

describe('error codes', () => {
  test('every code is in the README with the status it is answered with', () => {
    for (const code of ERROR_CODES) expect(documented).toContainEqual({ status: HTTP_STATUS[code], code })
  })

  test('the README documents no other code, and no other status than its code has, but the 416 of a Range', () => {
    for (const row of documented) {
      expect(ERROR_CODES).toContain(row.code as (typeof ERROR_CODES)[number])
      const range = row.status === 416 && row.code === 'invalid_request'
      if (!range) expect(HTTP_STATUS[row.code as (typeof ERROR_CODES)[number]]).toBe(row.status)
    }
  })
})
