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
  inbox: {
    dashboardLink: 'Mensajes de contacto',
    dashboardOpen_one: '{{count}} mensaje abierto',
    dashboardOpen_other: '{{count}} mensajes abiertos',
    title: 'Mensajes de contacto',
    lead: 'Mensajes enviados con el formulario de contacto, del más reciente al más antiguo, en hora de Japón. Marca cada uno como atendido cuando lo hayas respondido.',
    filtersLabel: 'Qué mensajes',
    filters: { open: 'Abiertos', handled: 'Atendidos', spam: 'Spam' },
    empty: {
      open: 'No hay mensajes abiertos.',
      handled: 'Todavía no hay mensajes atendidos.',
      spam: 'No hay spam.',
    },
    listHeading: 'Mensajes: {{filter}}',
    read: 'Leer el mensaje de {{name}}',
    received: 'Recibido el {{date}} (hora de Japón)',
    handledBadge: 'Atendido',
    pagesLabel: 'Páginas',
    olderPage: 'Mensajes anteriores',
    newestPage: 'Volver a los más recientes',
    backToList: 'Todos los mensajes',
    messageTitle: 'Mensaje de {{name}}',
    details: 'Datos',
    from: 'De',
    email: 'Correo',
    subject: 'Asunto',
    receivedLabel: 'Recibido',
    japanTime: '{{date}} (hora de Japón)',
    languageLabel: 'Idioma',
    languages: { es: 'español', en: 'inglés' },
    messageHeading: 'Mensaje',
    forwardingLabel: 'Reenvío',
    forwarding: {
      not_configured:
        'No se reenvió: no hay clave del servicio de formularios (CONTACT_FORM_ACCESS_KEY), así que llega solo a esta bandeja.',
      skipped: 'No se reenvió: la verificación antibots del formulario lo marcó como spam.',
      pending: 'Pendiente de reenvío al servicio de formularios.',
      sent: 'Reenviado al servicio de formularios el {{date}} (hora de Japón).',
      failed: 'El reenvío falló tras {{count}} intentos.',
    },
    lastError: 'Último error: {{error}}',
    statusLabel: 'Estado',
    statusOpen: 'Abierto: todavía sin atender.',
    statusHandled: 'Atendido el {{date}} (hora de Japón) por {{name}}.',
    statusHandledByUnknown: 'Atendido el {{date}} (hora de Japón).',
    markHandled: 'Marcar como atendido',
    reopen: 'Reabrir',
    reply: 'Responder por correo',
    replyHint: 'Abre tu programa de correo con la dirección y un asunto ya escritos.',
    replySubject: 'Re: tu mensaje a {{shop}}',
    subjects: {
      general: 'Consulta general',
      order: 'Ayuda con un pedido',
      shipping: 'Pregunta sobre envíos',
      product: 'Información de producto',
      other: 'Otro',
    },
    actionFailed: 'No se pudo actualizar el mensaje.',
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
