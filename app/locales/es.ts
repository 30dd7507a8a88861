import account from './es/account.ts'
import admin from './es/admin.ts'
import common from './es/common.ts'
import emails from './es/emails.ts'
import publicArea from './es/public.ts'

// Every Spanish string: the server's whole dictionary (e-mails, the JSON API, tests). A page renders
// and ships only the areas its routes name (app/locales/areas.ts).
export default { ...common, ...publicArea, ...account, ...admin, ...emails }
