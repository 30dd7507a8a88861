import type en from '../en/admin.ts'

// Spanish strings of the admin area.
// One Spanish for every page: neutral Latin-American Spanish (most customers are in Latin
// America), addressing the reader as tú. Prefer the Latin-American word and tense where Spain's
// differs: «Ingresa» (not «Introduce»), «celular» (not «móvil»), «computadora» (not «ordenador»),
// «agregar» (not «añadir»), «vence / venció» (not «caduca / ha caducado»), the simple past for
// what just happened («Perdiste», «Enviamos», «Se eliminó»; not «Has perdido», «Hemos enviado»,
// «Se ha eliminado»), no vosotros. Say things in plain words: no technical jargon (no «aal2»).
// `satisfies typeof en` makes a missing or extra key a type error.
export default {
  roles: {
    assignedTitle: 'Rol asignado',
    assignedText: 'Rol del usuario actualizado a {{role}}',
    deniedTitle: 'Permiso denegado',
    failedTitle: 'No se pudo asignar el rol',
    signInFirst: 'Inicia sesión primero.',
  },
  outbox: {
    title: 'Bandeja de salida de desarrollo',
    lead: 'Correos que el sitio habría enviado. Esta página solo existe fuera de producción.',
    empty: 'Todavía no hay correos.',
    to: 'Para: {{to}}',
    smsHeading: 'Mensajes de texto',
    smsEmpty: 'Todavía no hay mensajes de texto.',
  },
} satisfies typeof en
