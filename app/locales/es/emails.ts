import type { SpanishStrings } from '../areas.ts'
import type en from '../en/emails.ts'

// Spanish strings of the emails area: neutral Latin-American Spanish, addressing the reader as tú.
// `satisfies SpanishStrings<typeof en>` makes a missing or extra key a type error.
export default {
  emails: {
    greeting: 'Hola, {{name}}:',
    ignore: 'Si no lo pediste, puedes ignorar este correo.',
    linkFallback: 'Si el botón no funciona, copia este enlace en tu navegador:',
    footer: 'Enviado por {{shop}}, {{address}}.',
    contact: '¿Tienes preguntas? Escríbenos a {{email}}.',
    verify: {
      subject: 'Confirma tu correo electrónico',
      body: 'Confirma tu correo electrónico para terminar de crear tu cuenta.',
      button: 'Confirmar mi correo',
    },
    reset: {
      subject: 'Restablece tu contraseña',
      body: 'Recibimos una solicitud para restablecer tu contraseña. El enlace sirve una sola vez, durante una hora.',
      button: 'Elegir una nueva contraseña',
    },
    importEstimate:
      'Impuestos estimados a la llegada en {{country}}: {{amount}} (los cobra {{collector}}); es una estimación, no los cobramos nosotros.',
    importCollector: {
      customs: 'la aduana antes de la entrega',
      carrier: 'el correo o el courier al entregar',
    },
  },
  // Lo que se le avisa al equipo (su lista de notificaciones y correo, cada uno en su idioma): a
  // quienes pueden actuar (core/notifications/notify.ts, docs/decisions/036). Solo en el
  // servidor: la lista del equipo se escribe en el servidor (app/lib/notifications.server.ts).
  staffNotifications: {
    button: 'Abrir en el panel de administración',
    new_request: {
      title: 'Nueva solicitud {{number}} de {{customer}}',
      body: '{{count}} enlaces por cotizar.',
      body_one: '{{count}} enlace por cotizar.',
      body_many: '{{count}} enlaces por cotizar.',
      body_other: '{{count}} enlaces por cotizar.',
    },
    payment_held: {
      title: 'Pago retenido para revisión: {{number}}',
      body: 'El proveedor informó {{amount}}; la factura pide {{expectedJpy}}. La solicitud sigue sin pagar hasta que la revises.',
    },
    refund_due: {
      title: 'Reembolso pendiente: {{number}}',
      body: 'Llegó un segundo pago de {{amountJpy}} para una factura ya pagada. Reembólsalo en {{provider}}.',
    },
    request_cancelled: {
      title: 'El cliente canceló la solicitud {{number}}',
      body: 'No hay nada que hacer: no se comprará.',
      reason: 'Su motivo: {{reason}}',
    },
    quote_paid: {
      title: 'Cotización pagada: {{number}}',
      body: 'El cliente pagó {{amountJpy}} con {{provider}} (factura {{invoice}}). Ya puedes comprar sus productos.',
    },
    shipping_paid: {
      title: 'Envío pagado: {{number}}',
      body: 'El cliente pagó {{amountJpy}} del envío con {{provider}} (recibo {{invoice}}). La caja está lista para entregarla a la paquetería.',
    },
    customer_message: {
      title: '{{customer}} escribió sobre {{number}}',
      body: 'Un mensaje nuevo espera respuesta en la conversación del pedido.',
    },
    transfer_reported: {
      title: 'Transferencia por revisar: {{number}}',
      body: '{{customer}} dice que pagó {{amountJpy}} por transferencia bancaria (referencia {{invoice}}). Búscala en la cuenta del banco y, cuando haya llegado, regístrala con su referencia.',
    },
    new_shipment: {
      title: 'Nuevo envío {{number}} de {{customer}}',
      body: 'Productos: {{count}}, $t(analytics.methods.{{method}}) a {{country}}. Hay que empacarlo, pesarlo y cotizarlo.',
    },
    shipment_cancelled_by_customer: {
      title: 'El cliente canceló el envío {{number}}',
      body: 'No lo empaques ni lo envíes: sus productos volvieron al almacén.',
      body_receipt:
        'No lo empaques ni lo envíes: sus productos volvieron al almacén y su recibo de envío {{invoice}} ya no se puede pagar.',
      reason: 'Su motivo: {{reason}}',
    },
    new_claim: {
      title: 'Reportan perdido el envío {{number}}',
      body: 'El cliente dice que no le llegó. Abre un caso con la paquetería y anota su referencia en la página del envío.',
    },
  },
  // The grouped e-mail of a conversation's messages (server/conversation-emails.ts, ADR 048).
  conversationEmail: {
    subjectCustomer: {
      request: 'Nuevo mensaje sobre tu solicitud {{number}}',
      shipment: 'Nuevo mensaje sobre tu envío {{number}}',
    },
    subjectStaff: {
      request: '{{customer}} escribió sobre la solicitud {{number}}',
      shipment: '{{customer}} escribió sobre el envío {{number}}',
    },
    lead_one: 'Tienes {{count}} mensaje nuevo:',
    lead_other: 'Tienes {{count}} mensajes nuevos:',
    lead_many: 'Tienes {{count}} mensajes nuevos:',
    from: '{{author}}, {{date}} (hora de Japón):',
    team: 'Nuestro equipo',
    files_one: '({{count}} archivo adjunto: míralo en el sitio)',
    files_other: '({{count}} archivos adjuntos: míralos en el sitio)',
    files_many: '({{count}} archivos adjuntos: míralos en el sitio)',
    button: 'Leer y responder',
  },
} satisfies SpanishStrings<typeof en>
