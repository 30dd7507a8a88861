import type en from '../en/admin.ts'

// Spanish strings of the admin area: neutral Latin-American Spanish, addressing the reader as tú.
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
