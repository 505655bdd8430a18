import { redactPasswords } from '../../src/lib/redact'
import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { parseFormBoolean, parseJsonBoolean } from '../../src/lib/booleans'
import { parseTtl } from '../../src/lib/durations'
import { isWellFormedId, randomId } from '../../src/lib/ids'
import { createRateLimiter, rateLimitHeaders } from '../../src/lib/rate-limiter'
import { formatSize, parseSize } from '../../src/shared/sizes'
import { asciiFallback, downloadName } from '../../src/lib/download-name'
import { basename, checkText, codePointLength } from '../../src/lib/text'

describe('booleans', () => {
  test('only the eight words, in any case and with surrounding spaces', () => {
    const words = { true: true, false: false, '1': true, '0': false, yes: true, no: false, on: true, off: false }
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(words)), fc.boolean(), fc.stringMatching(/^[ \t]{0,3}$/), (word, upper, pad) => {
        const raw = `${pad}${upper ? word.toUpperCase() : word}${pad}`
        expect(parseFormBoolean(raw)).toBe(words[word as keyof typeof words])
      }),
    )
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const known = Object.keys(words).includes(raw.trim().toLowerCase())
        expect(parseFormBoolean(raw) === undefined).toBe(!known)
      }),
    )
  })
  test('JSON adds real booleans and the numbers 0 and 1 only', () => {
    expect(parseJsonBoolean(true)).toBe(true)
    expect(parseJsonBoolean(0)).toBe(false)
    expect(parseJsonBoolean(1)).toBe(true)
    for (const value of [2, -1, 0.5, null, [], {}, '']) expect(parseJsonBoolean(value)).toBeUndefined()
  })
})

describe('text rules', () => {
  test('length is code points after NFC', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (value) => {
        const check = checkText(value, { max: 1000, multiline: true })
        if (check.ok) expect(codePointLength(check.value)).toBe([...value.normalize('NFC').replace(/\r\n/g, '\n')].length)
      }),
    )
  })
  test('a value is accepted exactly when it has at most max code points, no forbidden controls and nothing that disguises text', () => {
    // Besides any UTF-16 unit, the edges of every refused range, so each comes up in a run.
    const edges = fc.constantFrom(
      '\u001F',
      '\u0020',
      '\u007E',
      '\u007F',
      '\u009F',
      '\u00A0',
      '\u2027',
      '\u2028',
      '\u2029',
      '\u202A',
      '\u202E',
      '\u202F',
      '\u2065',
      '\u2066',
      '\u2069',
      '\u206A',
    )
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      edges,
    )
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.string({ unit, maxLength: 30 })),
        fc.integer({ min: 0, max: 30 }),
        (value, max) => {
          const normalized = value.normalize('NFC')
          const expected =
            value.isWellFormed() &&
            [...normalized].length <= max &&
            !/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/.test(normalized)
          expect(checkText(value, { max }).ok).toBe(expected)
        },
      ),
    )
  })
  test('basename strips both separators', () => {
    expect(basename('a/b\\c.pdf')).toBe('c.pdf')
    expect(basename('c.pdf')).toBe('c.pdf')
    expect(basename('dir/')).toBe('')
  })
})

describe('download names', () => {
  test('whatever was stored, the name ends in .pdf and shows no control or direction-changing character', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x206f }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (stored) => {
        const name = downloadName(stored)
        expect(name).toMatch(/\.pdf$/i)
        expect(name).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/)
        expect(asciiFallback(name)).toMatch(/^[A-Za-z0-9 !#$&()+,.@[\]^_{}~-]*\.pdf$/i)
      }),
    )
  })
  test('a disguised name stored before such characters were refused is shown as it really is', () => {
    expect(downloadName('invoice\u202Efdp.exe')).toBe('invoicefdp.pdf')
    expect(downloadName('a.tar.gz')).toBe('a.tar.pdf')
    expect(downloadName('.html')).toBe('document.pdf')
  })
})

describe('sizes and durations', () => {
  test('parseSize with binary units', () => {
    expect(parseSize('5GB')).toBe(5 * 1024 ** 3)
    expect(parseSize('100 MiB')).toBe(104857600)
    expect(parseSize('1.5k')).toBe(1536)
    expect(parseSize('42')).toBe(42)
    for (const bad of ['', 'GB', '5 XB', '-1', '1e9']) expect(parseSize(bad)).toBeUndefined()
  })
  test('formatSize rounds down to one decimal', () => {
    expect(formatSize(5 * 1024 ** 3)).toBe('5 GB')
    expect(formatSize(Math.floor(4.95 * 1024 ** 3))).toBe('4.9 GB')
    expect(formatSize(104857600)).toBe('100 MB')
    expect(formatSize(12)).toBe('12 bytes')
  })
  test('parseTtl', () => {
    expect(parseTtl('90d')).toBe(90 * 86400)
    expect(parseTtl('12h')).toBe(43200)
    expect(parseTtl('never')).toBeNull()
    for (const bad of ['0d', '12', 'd', '1.5h', 'forever']) expect(parseTtl(bad)).toBeUndefined()
  })
})

describe('passwords in messages', () => {
  test('the password of every URL in a text is replaced, the rest is kept', () => {
    expect(redactPasswords('cannot connect to postgres://app:hunter2@db:5432/pdfshare (refused)')).toBe(
      'cannot connect to postgres://app:***@db:5432/pdfshare (refused)',
    )
    expect(redactPasswords('"postgresql://u:p@ss@[x" and s3://k:secret@host/b')).toBe('"postgresql://u:***@[x" and s3://k:***@host/b')
    expect(redactPasswords('postgres://app@db/x, https://example.test/a@b, a:b@c')).toBe(
      'postgres://app@db/x, https://example.test/a@b, a:b@c',
    )
  })
})

describe('ids', () => {
  test('random ids are 22 URL-safe characters carrying 128 bits, and well formed', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => randomId()))
    expect(ids.size).toBe(1000)
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
      expect(isWellFormedId(id)).toBe(true)
    }
    expect(isWellFormedId('a'.repeat(65))).toBe(false)
    expect(isWellFormedId('../x')).toBe(false)
  })
})

describe('rate limiter', () => {
  test('counts per key within a minute window and resets after it', () => {
    const limiter = createRateLimiter({ perMinute: 2 })
    const t0 = 60_000 * 1000 + 10_000
    expect(limiter.hit('a', t0)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 50 })
    expect(limiter.hit('a', t0)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 50 })
    expect(limiter.hit('a', t0)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 50 })
    expect(limiter.hit('b', t0)!.allowed).toBe(true)
    expect(limiter.hit('a', t0 + 50_000)!.allowed).toBe(true)
  })
  test('0 turns it off; the number of keys tracked is bounded', () => {
    const off = createRateLimiter({ perMinute: 0 })
    for (let i = 0; i < 10; i++) expect(off.hit('a', 0)).toBeUndefined()
    const bounded = createRateLimiter({ perMinute: 1, maxKeys: 2 })
    bounded.hit('a', 0)
    bounded.hit('b', 0)
    bounded.hit('c', 0) // not tracked: the table is full
    expect(bounded.hit('a', 0)!.allowed).toBe(false)
  })
  test('never fails open: with the table full, further keys share a few counters and are limited all the same', () => {
    const warnings: number[] = []
    const limiter = createRateLimiter({ perMinute: 2, maxKeys: 100, onOverflow: () => warnings.push(1) })
    for (let i = 0; i < 100; i++) expect(limiter.hit(`early${i}`, 0)!.allowed).toBe(true)
    // A flood of 10,000 new keys in the same minute: none of them gets a third request.
    for (let i = 0; i < 10_000; i++) {
      const allowed = [0, 1, 2].map(() => limiter.hit(`flood${i}`, 0)!.allowed)
      expect(allowed[2]).toBe(false)
    }
    // The keys tracked before the table filled keep their exact count; memory stays bounded.
    expect(limiter.hit('early0', 0)!.allowed).toBe(true)
    expect(limiter.hit('early0', 0)!.allowed).toBe(false)
    expect(limiter.trackedKeys()).toBeLessThanOrEqual(100)
    expect(warnings).toHaveLength(1) // said once per window
    // The next minute starts empty.
    expect(limiter.hit('flood1', 60_000)!.allowed).toBe(true)
    expect(limiter.trackedKeys()).toBe(1)
  })
  test('a counted request can be taken back within its window, never below zero and never in a later one', () => {
    const limiter = createRateLimiter({ perMinute: 1 })
    limiter.hit('a', 1000)
    limiter.undo('a', 1000)
    limiter.undo('a', 1000)
    expect(limiter.hit('a', 2000)!.allowed).toBe(true)
    expect(limiter.hit('a', 2000)!.allowed).toBe(false)
    limiter.hit('b', 59_000)
    limiter.hit('b', 60_500) // a new window
    limiter.undo('b', 59_000) // from the old window: changes nothing now
    expect(limiter.hit('b', 61_000)!.allowed).toBe(false)
  })
  test('client addresses are grouped for limits: IPv4 as it is, IPv6 by its /64, IPv4-mapped IPv6 as IPv4', async () => {
    const { addressGroup } = await import('../../src/lib/address-group')
    expect(addressGroup('203.0.113.9')).toBe('203.0.113.9')
    expect(addressGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:0DB8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressGroup('::1')).toBe('0:0:0:0::/64')
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1')
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(addressGroup('2001:db8:1:2::192.0.2.1')).toBe('2001:db8:1:2::/64')
    expect(addressGroup('')).toBe('')
    expect(addressGroup('x'.repeat(500)).length).toBeLessThanOrEqual(64)
    const group = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 1, maxLength: 4 })
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.array(group, { minLength: 4, maxLength: 4 }),
        (address, otherHost) => {
          const sameNetwork = [...address.slice(0, 4), ...otherHost]
          expect(addressGroup(address.join(':'))).toBe(addressGroup(sameNetwork.join(':')))
        },
      ),
    )
  })
  test('headers: RateLimit-Limit/Remaining/Reset, and Retry-After only when refused', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 600, remaining: 12, resetSeconds: 7 })).toEqual({
      'ratelimit-limit': '600',
      'ratelimit-remaining': '12',
      'ratelimit-reset': '7',
    })
    expect(rateLimitHeaders({ allowed: false, limit: 600, remaining: 0, resetSeconds: 7 })['retry-after']).toBe('7')
  })
})

describe('concurrency helpers', () => {
  test('the limiter never runs more than its limit at once, and runs everything', async () => {
    const { createLimiter } = await import('../../src/lib/concurrency')
    const run = createLimiter(2)
    let active = 0
    let peak = 0
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        run(async () => {
          peak = Math.max(peak, ++active)
          await Bun.sleep(5)
          active--
          return i
        }),
      ),
    )
    expect(peak).toBe(2)
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })
  test('the limiter refuses work beyond its queue', async () => {
    const { createLimiter, QueueFullError } = await import('../../src/lib/concurrency')
    const run = createLimiter(1, 1)
    const slow = () => Bun.sleep(20)
    const first = run(slow)
    const second = run(slow)
    await expect(run(slow)).rejects.toBeInstanceOf(QueueFullError)
    await Promise.all([first, second])
  })
  test('single flight: concurrent calls with one key share one execution; later calls run again', async () => {
    const { createSingleFlight } = await import('../../src/lib/concurrency')
    const once = createSingleFlight<number>()
    let executions = 0
    const task = async () => {
      executions++
      await Bun.sleep(5)
      return executions
    }
    const shared = await Promise.all([once('a', task), once('a', task), once('a', task), once('b', task)])
    expect(executions).toBe(2)
    expect(shared[0]).toBe(shared[1])
    expect(shared[1]).toBe(shared[2])
    await once('a', task)
    expect(executions).toBe(3)
  })
})
