import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { renderToPipeableStream } from 'react-dom/server'
import { I18nextProvider } from 'react-i18next'
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router'
import { isRouteErrorResponse, ServerRouter } from 'react-router'
import { DocumentAssetsProvider } from './components/document-scripts.tsx'
import { NonceProvider } from './components/nonce.tsx'
import { requestContext } from './context.ts'
import { getServerI18n } from './i18n.server.ts'
import { bundlesFor } from './locales/areas.ts'

export const streamTimeout = 5_000

/**
 * Renders the whole document before answering (`onAllReady`): pages are small, and a complete
 * body is what the page cache stores.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { language, nonce, log, documentAssets } = loadContext.get(requestContext)
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
  // The same URL differs by the language and currency cookies.
  responseHeaders.set('Vary', 'Cookie')
  if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'no-cache')
  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }

  // The strings of the page's areas only: the same the browser loads before hydrating.
  const bundles = bundlesFor(
    routerContext.staticHandlerContext.matches.map((match) => ({
      handle: routerContext.routeModules[match.route.id]?.handle,
    })),
  )
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode
    let shellRendered = false
    // Abort a render that never finishes; cleared as soon as it does, so no timer outlives its page.
    const timeout = setTimeout(() => abort(), streamTimeout + 1000)
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentAssetsProvider value={documentAssets}>
          <I18nextProvider i18n={getServerI18n(language, bundles)}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nextProvider>
        </DocumentAssetsProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeout)
              callback()
            },
          })
          pipe(body)
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status }))
        },
        onShellError(error: unknown) {
          clearTimeout(timeout)
          reject(error)
        },
        onError(error: unknown) {
          status = 500
          if (shellRendered) log.error({ err: error }, 'render error after the shell')
        },
      },
    )
  })
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // Aborted requests and client errors (404, 405…) are not failures of ours; the request log has them.
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return
  const { log } = context.get(requestContext)
  // React Router's own refusal of a cross-origin action (server/app.ts refuses them first): a
  // visitor's doing, not a failure of ours, so a warning without a stack.
  if (error instanceof Error && /Aborting the action\.$/.test(error.message)) {
    log.warn({ url: request.url, why: error.message }, 'cross-origin form post refused')
    return
  }
  log.error({ err: error, url: request.url }, 'request failed')
}
