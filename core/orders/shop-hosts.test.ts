import { expect, test } from 'vitest'
import { SEED_STORES } from '#core/seed/data/stores.ts'
import { shopHostOf, shopOf } from './shop-hosts.ts'

// Beside each link of the request form: the guide's shop it is from, or none (ADR 038).

const shops = SEED_STORES.map((store) => ({ name: store.name, host: shopHostOf(store.url) }))

test('a link of a guide shop (or one of its subdomains) is that shop; eBay and nonsense are none', () => {
  expect(shopOf('https://jp.mercari.com/item/m123', shops)?.name).toMatch(/Mercari/)
  expect(shopOf('https://www.amazon.co.jp/dp/B000', shops)?.name).toMatch(/Amazon/)
  expect(shopOf('https://www.ebay.com/itm/123', shops)).toBeNull()
  expect(shopOf('not a link', shops)).toBeNull()
  expect(shopHostOf('https://WWW.Example.co.jp/x')).toBe('example.co.jp')
})
