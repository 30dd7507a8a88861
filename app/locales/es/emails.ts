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
  },
} satisfies SpanishStrings<typeof en>
