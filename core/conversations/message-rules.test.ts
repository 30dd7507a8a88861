import { expect, test } from 'vitest'
import { messageParts } from './message-rules.ts'

// Links in a message are made clickable when it is shown, never HTML from the writer (ADR 048).

test('http and https addresses become links; the sentence’s punctuation stays text', () => {
  expect(messageParts('Mira https://shop.example/a?b=1&c=2, y http://x.example/p).')).toEqual([
    { kind: 'text', text: 'Mira ' },
    { kind: 'link', href: 'https://shop.example/a?b=1&c=2', text: 'https://shop.example/a?b=1&c=2' },
    { kind: 'text', text: ', y ' },
    { kind: 'link', href: 'http://x.example/p', text: 'http://x.example/p' },
    { kind: 'text', text: ').' },
  ])
})

test('no other scheme is a link, and markup stays text', () => {
  const hostile = 'javascript:alert(1) <a href="javascript:alert(1)">x</a> data:text/html,<b> ftp://x.example'
  expect(messageParts(hostile)).toEqual([{ kind: 'text', text: hostile }])
  expect(messageParts('<img src=x onerror=alert(1)>https://ok.example"onmouseover=alert(1)')).toEqual([
    { kind: 'text', text: '<img src=x onerror=alert(1)>' },
    { kind: 'link', href: 'https://ok.example', text: 'https://ok.example' },
    { kind: 'text', text: '"onmouseover=alert(1)' },
  ])
  expect(messageParts('')).toEqual([])
  expect(messageParts('https://')).toEqual([{ kind: 'text', text: 'https://' }])
})
