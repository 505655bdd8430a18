import { expect, test } from 'bun:test'
import fc from 'fast-check'
import { decodePageSizes, encodePageSizes, firstPageSize } from '../../src/core/previews/page-sizes'

// Every page's size, kept in a few bytes in `pdf_pages.sizes`: runs of equal sizes.

test('runs of equal sizes are written once with their count, to two decimals', () => {
  const letter = { width: 612, height: 792 }
  const a4Turned = { width: 841.8898, height: 595.2756 }
  expect(encodePageSizes([letter, letter, letter, a4Turned, letter])).toBe('612x792*3,841.89x595.28,612x792')
  expect(encodePageSizes([])).toBe('')
  expect(firstPageSize('841.89x595.28*2,612x792')).toEqual({ width: 841.89, height: 595.28 })
})

test('what was not written by this code reads as unknown, never as a wrong size', () => {
  for (const text of [null, undefined, '', 'x', '612x', '0x792', '612x792*', 'NaNx1', '-612x792', '612 x 792'])
    expect(firstPageSize(text)).toBeUndefined()
  expect(decodePageSizes('612x792,oops')).toBeUndefined()
  expect(decodePageSizes('0x792')).toBeUndefined()
  expect(decodePageSizes('')).toEqual([]) // a PDF of no pages
})

test('decoding gives back every page in order (property)', () => {
  const size = fc.record({
    width: fc.integer({ min: 1, max: 1_440_000 }).map((n) => n / 100),
    height: fc.integer({ min: 1, max: 1_440_000 }).map((n) => n / 100),
  })
  fc.assert(
    fc.property(fc.array(fc.oneof(size, fc.constant({ width: 612, height: 792 })), { minLength: 1, maxLength: 60 }), (sizes) => {
      expect(decodePageSizes(encodePageSizes(sizes))).toEqual(sizes)
      expect(firstPageSize(encodePageSizes(sizes))).toEqual(sizes[0])
    }),
  )
})
