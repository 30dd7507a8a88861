import account from './en/account.ts'
import admin from './en/admin.ts'
import common from './en/common.ts'
import emails from './en/emails.ts'
import publicArea from './en/public.ts'

// Every English string: the server's whole dictionary (e-mails, the JSON API, tests). A page renders
// and ships only the areas its routes name (app/locales/areas.ts); e-mail strings never reach the
// browser.
export default { ...common, ...publicArea, ...account, ...admin, ...emails }
