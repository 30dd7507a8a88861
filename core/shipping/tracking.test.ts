import { expect, test } from 'vitest'
import { checkTrackingNumber, s10CheckDigit, trackingUrl } from './tracking.ts'

test('the S10 check digit (UPU): the published example and the two special cases', () => {
  // UPU's example RR 47312482 9 GB: 8·4 + 6·7 + 4·3 + 2·1 + 3·2 + 5·4 + 9·8 + 7·2 = 200, 200 mod 11 = 2, 11 − 2 = 9.
  expect(s10CheckDigit('47312482')).toBe(9)
  expect(s10CheckDigit('12345678')).toBe(5)
  // A sum leaving 1 gives 10, written 0; one leaving 0 gives 11, written 5.
  expect(s10CheckDigit('00004000')).toBe(0)
  expect(s10CheckDigit('00000000')).toBe(5)
})

test('Japan Post numbers: shape, country and check digit; written as people copy them', () => {
  expect(checkTrackingNumber('japan_post', 'ee 1234 5678 5 jp')).toEqual({
    ok: true,
    number: 'EE123456785JP',
  })
  expect(checkTrackingNumber('japan_post', 'EE-123456785-JP')).toEqual({ ok: true, number: 'EE123456785JP' })
  expect(checkTrackingNumber('japan_post', 'EE123456784JP')).toEqual({
    ok: false,
    problem: 'trackingCheckDigit',
  })
  expect(checkTrackingNumber('japan_post', 'EE123456785US')).toEqual({
    ok: false,
    problem: 'trackingJapanPost',
  })
  expect(checkTrackingNumber('japan_post', '123456789012')).toEqual({
    ok: false,
    problem: 'trackingJapanPost',
  })
  expect(checkTrackingNumber('japan_post', '   ')).toEqual({ ok: false, problem: 'trackingRequired' })
})

test('courier numbers: letters and digits, 8 to 40, not one character repeated', () => {
  expect(checkTrackingNumber('ups', '1Z 999 AA1 01 2345 6784')).toEqual({
    ok: true,
    number: '1Z999AA10123456784',
  })
  expect(checkTrackingNumber('dhl', '1234567')).toEqual({ ok: false, problem: 'trackingShape' })
  expect(checkTrackingNumber('fedex', '0000000000')).toEqual({ ok: false, problem: 'trackingShape' })
  expect(checkTrackingNumber('usps', '<script>alert(1)</script>')).toEqual({
    ok: false,
    problem: 'trackingShape',
  })
  expect(checkTrackingNumber('dhl', 'A'.repeat(20) + 'B'.repeat(21))).toEqual({
    ok: false,
    problem: 'trackingShape',
  })
})

test('tracking links name the number, encoded, in the customer’s language where the carrier has one', () => {
  expect(trackingUrl('japan_post', 'EE123456785JP', 'es')).toBe(
    'https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1=EE123456785JP&searchKind=S002&locale=en',
  )
  expect(trackingUrl('ups', '1Z999', 'es')).toContain('loc=es_MX&tracknum=1Z999')
  expect(trackingUrl('dhl', 'AB 12', 'en')).toContain('tracking-id=AB%2012')
})
