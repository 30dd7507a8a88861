import { createContext, useContext } from 'react'
import { PUBLIC_PATHS } from '#app/lib/page-kind.ts'

/**
 * The few lines of plain script every page carries in its <head> (app/lib/page-kind.ts, ADR 044).
 * They run before the first paint and act only until React has hydrated the page
 * (`data-hydrated`), which on a document page is never:
 *
 * - A tap on a link or a form's submission before hydration goes to the browser, not to React:
 *   React would swallow it (its root listener sees an element it has not hydrated yet), and
 *   React Router's `history.replaceState` calls (its scroll restoration's when the entry has no
 *   `key`, its history's when it has no `idx`) would cancel the navigation the tap started, and
 *   abort a cross-document view transition into the page. So the entry gets the `key` and `idx`
 *   React Router would give it here, before any tap is possible, and the tap's event stops at the
 *   window: the browser follows the link or posts the form, which every page answers without
 *   JavaScript. Inside an island React has hydrated (`data-island-ready`), React has them.
 * - A cross-document view transition that the browser skips (a navigation cut it short, the page
 *   already revealed) rejects its promises; nobody awaits them, so they are settled here, and a
 *   rejection of one the page never received ("Transition was aborted …") is not reported as an
 *   unhandled error.
 * - The currency select submits its form on change (its Apply button is hidden by app.css where
 *   scripting is on).
 * - On a document page (`<html data-page="document">`): the menu closes on Escape and names its
 *   state, a notice closes on its button or after 8 s, a consented widget's loader is added, the
 *   element marked `data-autofocus` takes the focus (a form's confirmation), and a form's submit
 *   button says it is sending (`data-pending-label`) until the answer arrives.
 */
const PAGE_SCRIPT = `(function(d,w){
var r=d.documentElement,h=w.history;
function live(){return r.dataset.hydrated==='true'}
function doc(){return r.dataset.page==='document'}
var st=h.state||{};
if(st.idx==null||!st.key)h.replaceState(Object.assign({usr:null},st,{key:st.key||Math.random().toString(32).slice(2),idx:st.idx==null?0:st.idx}),'');
function settle(e){var t=e.viewTransition;if(t)[t.ready,t.finished,t.updateCallbackDone].forEach(function(p){if(p)p.catch(function(){})})}
w.addEventListener('pageswap',settle);w.addEventListener('pagereveal',settle);
w.addEventListener('unhandledrejection',function(e){var r=e.reason;if(r&&/^Transition was aborted/.test(r.message))e.preventDefault()});
function pass(e){
if(live()||!e.target||!e.target.closest)return;
var el=e.target.closest(e.type==='submit'?'form':'a[href]');
if(!el||el.closest('[data-island-ready]')||(e.type==='click'&&((el.target&&el.target!=='_self')||el.hasAttribute('download'))))return;
e.stopImmediatePropagation();
var b=e.type==='submit'&&doc()&&el.querySelector('[data-pending-label]');
if(b)setTimeout(function(){b.dataset.label=b.textContent;b.textContent=b.dataset.pendingLabel;b.disabled=true})}
w.addEventListener('pageshow',function(e){if(e.persisted)d.querySelectorAll('[data-pending-label][data-label]').forEach(function(b){b.textContent=b.dataset.label;b.disabled=false})});
w.addEventListener('click',pass,true);
w.addEventListener('submit',pass,true);
w.addEventListener('change',function(e){
var s=e.target;if(live()||!s||!s.matches||!s.matches('select[data-autosubmit]')||!s.form)return;
e.stopImmediatePropagation();s.form.requestSubmit()},true);
d.addEventListener('toggle',function(e){
var m=e.target;if(live()||!doc()||!m.matches||!m.matches('details[data-menu]'))return;
var s=m.querySelector('summary');s.setAttribute('aria-label',m.open?s.dataset.labelClose:s.dataset.labelOpen)},true);
w.addEventListener('keydown',function(e){
if(live()||!doc()||e.key!=='Escape')return;
var m=d.querySelector('details[data-menu][open]');if(!m)return;
e.preventDefault();m.open=false;m.querySelector('summary').focus()},true);
w.addEventListener('click',function(e){
var b=!live()&&doc()&&e.target.closest&&e.target.closest('[data-toast-close]');
if(b)b.closest('[data-toast]').remove()});
d.addEventListener('DOMContentLoaded',function(){
if(live()||!doc())return;
var f=d.querySelector('[data-autofocus]');
if(f){f.focus();w.addEventListener('load',function(){if(d.activeElement===d.body)f.focus()})}
d.querySelectorAll('[data-toast]').forEach(function(t){setTimeout(function(){t.remove()},8000)});
var g=d.querySelector('[data-widget-script]');
if(g){var s=d.createElement('script');s.src=g.dataset.widgetScript;s.async=true;d.body.append(s)}})
})(document,window)`

/**
 * Where a document page may be taken ahead of the click: prerendered when the pointer rests on
 * the link (or the finger goes down), so following it paints at once. Never a link that switches
 * the language (it sets a cookie), never one marked `data-no-prerender`.
 */
const SPECULATION_RULES = JSON.stringify({
  prerender: [
    {
      where: {
        and: [
          { href_matches: PUBLIC_PATHS.map((pathname) => ({ pathname })) },
          { not: { selector_matches: '[hreflang], [data-no-prerender]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
})

/**
 * Following a link between two pages of the site is one page turning into the next (the public
 * pages are ordinary page loads), unless the visitor asked for less motion. Inline on every page,
 * not in the stylesheet: on a page that links the stylesheet, a first visit (nothing cached) found
 * the opt-in missing when the page was revealed, and Chromium then reported the skipped
 * transition as an uncaught error.
 */
const VIEW_TRANSITIONS =
  '@media (prefers-reduced-motion: no-preference) { @view-transition { navigation: auto; } }'

export function ViewTransitions({ nonce }: { nonce: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant rule of ours, under the CSP nonce
  return <style nonce={nonce} dangerouslySetInnerHTML={{ __html: VIEW_TRANSITIONS }} />
}

export function PageScript({ nonce }: { nonce: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: our own constant script, under the CSP nonce
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: PAGE_SCRIPT }} />
}

export function SpeculationRules({ nonce }: { nonce: string }) {
  return (
    <script
      type="speculationrules"
      nonce={nonce}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant JSON document of ours
      dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }}
    />
  )
}

/**
 * What the server knows of the build for a document page (server/document-assets.ts): whether
 * document pages are served as such (not in development, where Vite's client needs React
 * Router's scripts), the stylesheet's text to inline, and an island's script and its imports. In
 * the browser there is none: a page rendered there is part of the hydrated app.
 */
export type DocumentAssets = {
  documents: boolean
  stylesheetText(href: string): string | null
  island(name: string): { src: string; preloads: string[] } | null
}

const NO_ASSETS: DocumentAssets = { documents: false, stylesheetText: () => null, island: () => null }

const DocumentAssetsContext = createContext<DocumentAssets>(NO_ASSETS)

export const DocumentAssetsProvider = DocumentAssetsContext.Provider

export function useDocumentAssets(): DocumentAssets {
  return useContext(DocumentAssetsContext)
}

export function InlineStyle({ css, nonce }: { css: string; nonce: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the site's own built stylesheet
  return <style nonce={nonce} dangerouslySetInnerHTML={{ __html: css }} />
}
