import { expect, test } from 'vitest'
import { messagingHandle } from './messaging-links.ts'

test('a profile address gives its handle', () => {
  expect(messagingHandle('instagram', 'https://www.instagram.com/tienda.japon/')).toBe('@tienda.japon')
  expect(messagingHandle('facebook', 'https://www.facebook.com/TiendaJapon')).toBe('@TiendaJapon')
  expect(messagingHandle('whatsapp', 'https://wa.me/5215512345678')).toBe('+5215512345678')
  expect(messagingHandle('whatsapp', 'https://wa.me/+52%201%2055%201234%205678')).toBe('+5215512345678')
})

test('an address that names nobody gives null, so the network name is shown instead', () => {
  expect(messagingHandle('instagram', 'https://www.instagram.com/')).toBeNull()
  expect(messagingHandle('facebook', 'https://www.facebook.com/')).toBeNull()
  expect(messagingHandle('whatsapp', 'https://wa.me/')).toBeNull()
  expect(messagingHandle('facebook', 'https://www.facebook.com/profile.php?id=1')).toBeNull()
  expect(messagingHandle('instagram', 'https://www.instagram.com/p/abc')).toBeNull()
  expect(messagingHandle('whatsapp', 'https://wa.me/123')).toBeNull()
  expect(messagingHandle('instagram', 'not a url')).toBeNull()
})
