import { expect, test } from 'vitest'
import { SEED_SITE_PAGES } from './default-pages.ts'
import {
  fillPlaceholders,
  SITE_PAGE_LIMITS,
  SITE_PAGE_PLACEHOLDERS,
  SitePageFormSchema,
  sectionsOf,
} from './site-page-text.ts'

test('a body reads as sections of paragraphs and lists; markup is text', () => {
  expect(
    sectionsOf(
      'Intro line\nsecond line\n\n## First\n- one\n- two\nAfter the list\n\n## <b>Second</b>\n\n\nText',
    ),
  ).toEqual([
    { heading: null, blocks: [{ type: 'paragraph', text: 'Intro line\nsecond line' }] },
    {
      heading: 'First',
      blocks: [
        { type: 'list', items: ['one', 'two'] },
        { type: 'paragraph', text: 'After the list' },
      ],
    },
    { heading: '<b>Second</b>', blocks: [{ type: 'paragraph', text: 'Text' }] },
  ])
})

test('placeholders are filled; unknown ones stay as written', () => {
  const values = Object.fromEntries(SITE_PAGE_PLACEHOLDERS.map((name) => [name, `<${name}>`])) as never
  expect(fillPlaceholders('{{company.name}} · {{ serviceFee }} · {{nope}}', values)).toBe(
    '<company.name> · <serviceFee> · {{nope}}',
  )
})

test('the seeded pages pass the editor’s own form, in both languages, and name only known placeholders', () => {
  for (const page of Object.values(SEED_SITE_PAGES)) {
    const parsed = SitePageFormSchema.safeParse({ version: '1', ...page })
    expect(parsed.success).toBe(true)
    for (const language of ['es', 'en'] as const) {
      expect(page.body[language].length).toBeLessThanOrEqual(SITE_PAGE_LIMITS.body)
      const names = [...page.body[language].matchAll(/\{\{([^}]+)\}\}/g)].map((match) => match[1])
      expect(
        names.filter((name) => !(SITE_PAGE_PLACEHOLDERS as readonly string[]).includes(name ?? '')),
      ).toEqual([])
      expect(sectionsOf(page.body[language]).length).toBeGreaterThan(3)
    }
    // The two languages have the same sections.
    expect(sectionsOf(page.body.es).length).toBe(sectionsOf(page.body.en).length)
  }
})
