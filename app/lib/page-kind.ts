/**
 * The two kinds of page (docs/decisions/044-public-pages-without-framework-javascript.md):
 *
 * - `document`: server-rendered HTML that loads no framework JavaScript. The stylesheet is inlined,
 *   a few lines of plain script (app/components/document-scripts.tsx) close the menu on Escape,
 *   submit the currency on change and close the notices, and links to other public pages are
 *   ordinary page loads made instant by speculation rules and cross-document view transitions.
 *   The public pages: home, services, the store guide, the pages staff write, the missing page,
 *   contact (its form posts and the server answers, with or without JavaScript) and the
 *   calculator, whose form alone hydrates as an island (app/islands/).
 * - `app` (every page that does not say otherwise): React Router hydrates the document and
 *   navigates on the client. Sign-in and every signed-in area.
 *
 * A new public page is a document unless it must react to the visitor between page loads; then
 * the part that reacts is an island, and only if the whole page is an application (an account
 * area) is it an app page.
 *
 * A route says it is a document in its handle: `export const handle = { ...areas('public'),
 * ...documentPage }`. A page is a document when its deepest route says so.
 */
export type PageKindHandle = { pageKind?: 'document' }

export const documentPage: PageKindHandle = { pageKind: 'document' }

export function isDocumentPage(matches: readonly { handle?: unknown }[]): boolean {
  const leaf = matches.at(-1)?.handle as PageKindHandle | undefined
  return leaf?.pageKind === 'document'
}

/**
 * The public pages: listed in the sitemap, and where a visitor may be sent ahead of their click
 * (speculation rules: a GET that changes nothing). Links that switch the language carry
 * `hreflang` and are never prerendered (the answer sets a cookie).
 */
export const PUBLIC_PATHS = [
  '/',
  '/services',
  '/calculator',
  '/store-guide',
  '/contact',
  '/prohibited-items',
  '/seller-disclosure',
] as const
