import type { SpanishStrings } from '../areas.ts'
import type en from '../en/public.ts'

// Spanish strings of the public area.
// One Spanish for every page: neutral Latin-American Spanish (most customers are in Latin
// America), addressing the reader as tú. Prefer the Latin-American word and tense where Spain's
// differs: «Ingresa» (not «Introduce»), «celular» (not «móvil»), «computadora» (not «ordenador»),
// «agregar» (not «añadir»), «vence / venció» (not «caduca / ha caducado»), the simple past for
// what just happened («Perdiste», «Enviamos», «Se eliminó»; not «Has perdido», «Hemos enviado»,
// «Se ha eliminado»), no vosotros. Say things in plain words: no technical jargon (no «aal2»).
// `satisfies SpanishStrings<typeof en>` makes a missing or extra key a type error.
export default {
  pricing: {
    heading: 'Precios transparentes',
    serviceFee: 'Tarifa de servicio por artículo',
    tax: 'Impuesto',
    taxNote: '{{rate}} sobre el precio del producto más la tarifa de servicio',
    shipping: 'Envío internacional',
    shippingNote: 'Varía según el peso, el método y el destino',
    storage: 'Almacenamiento gratuito',
    storageDays_one: '{{count}} día',
    storageDays_other: '{{count}} días',
    storageDays_many: '{{count}} días',
    noHiddenFees: 'Sin cargos ocultos.',
    approximately: 'aprox. {{amount}}',
    payment: 'Cómo pagas',
    paymentNote: 'Con {{methods}}, desde la cotización en tu área de cliente.',
  },
  payWith: {
    bank: 'transferencia bancaria',
    bankCard: 'transferencia bancaria o tarjeta de crédito o débito',
    bankPaypal: 'transferencia bancaria o PayPal (también con tarjeta: sin necesidad de cuenta PayPal)',
    bankCardPaypal:
      'transferencia bancaria, tarjeta de crédito o débito, o PayPal (sin necesidad de cuenta PayPal)',
  },
  home: {
    title: 'Compras en Japón y envíos a todo el mundo',
    description:
      'Compramos por ti en cualquier tienda de Japón, almacenamos y consolidamos tus artículos y los enviamos a todo el mundo. Tarifa de servicio de 500 yenes por artículo.',
    heading: 'Compra lo que quieras en Japón, nosotros te lo enviamos',
    lead: 'Envíanos el enlace de cualquier artículo de una tienda japonesa. Lo cotizamos, lo compramos, lo recibimos en nuestra oficina de Osaka, consolidamos tus compras y las enviamos hasta tu puerta.',
    order: 'Haz tu pedido',
    orderForm: 'Envía una solicitud en línea',
    orderFormSignIn: 'Inicia sesión y envía una solicitud en línea',
    orderFormHint:
      'Hasta diez enlaces a la vez; sigues la cotización, el pago y el envío en tu área de cliente.',
    orderHint: 'O envíanos los enlaces de los productos por cualquiera de estos canales:',
    ctaStoreGuide: 'Dónde comprar',
    ctaCalculator: 'Calcular un precio',
    opensInNewTab: '(se abre en una pestaña nueva)',
    steps: {
      heading: 'Cómo funciona, en siete pasos',
      s1: {
        title: 'Envíanos los enlaces',
        text: 'Envía los enlaces de los productos en nuestro formulario de solicitud, o envíalos (o una imagen clara) por Instagram, Facebook o WhatsApp.',
      },
      s2: {
        title: 'Recibe tu cotización',
        text: 'Te respondemos con la cotización, tu recibo electrónico, en tu área de cliente y por correo.',
      },
      s3: {
        title: 'Paga los productos',
        text: 'Paga con {{methods}}.',
      },
      s4: {
        title: 'Llegan tus artículos',
        text: 'Tus artículos llegan a nuestra oficina de Osaka y te avisamos por correo, con fotos en tu área de cliente.',
      },
      s5: {
        title: 'Almacenar o enviar',
        text: 'Sigue almacenando para juntar más compras, o pide el envío desde tu área de cliente.',
      },
      s6: {
        title: 'Paga el envío',
        text: 'Tras el pesaje y la consolidación, paga el recibo del envío internacional.',
      },
      s7: {
        title: 'Recibe tu pedido',
        text: 'Tu paquete viaja hasta ti, con seguimiento en los envíos exprés.',
      },
    },
    reasons: {
      heading: 'Por qué comprar con nosotros',
      anything: {
        title: 'Todo lo de Japón',
        text: 'Cualquier tienda, incluidos productos limitados y preventas.',
      },
      consolidation: {
        title: 'Consolidación gratuita',
        text: 'Juntamos pedidos de distintas tiendas en un solo paquete.',
      },
      worldwide: {
        title: 'Envíos a todo el mundo',
        text: 'Latinoamérica, España, EE. UU., Europa, Asia y Oceanía.',
      },
      support: {
        title: 'Personas reales, todos los días',
        text: 'Atención por correo y redes sociales; nuestro sitio está abierto 24/7.',
      },
    },
    extras: {
      heading: 'También incluido',
      service: {
        title: 'Atención al cliente',
        text: 'Respuestas en español e inglés, desde la primera pregunta hasta la entrega.',
      },
      trust: {
        title: 'Seguridad y confianza',
        text: 'Un recibo electrónico para cada pago; paga con {{methods}}.',
      },
      web: {
        title: 'Servicio web',
        text: 'Calculadoras, una guía de tiendas y tus pedidos en línea: solicitudes, cotizaciones, pagos, fotos de tus artículos y envíos.',
      },
    },
    reviews: {
      heading: 'Lo que dicen nuestros clientes',
      average: '{{average}} de 5',
      basedOn_one: 'según {{count}} opinión',
      basedOn_other: 'según {{count}} opiniones',
      basedOn_many: 'según {{count}} opiniones',
      stars: '{{rating}} de 5 estrellas',
      empty: 'Todavía no hay opiniones.',
      widgetHeading: 'Más opiniones y publicaciones',
    },
    gallery: {
      heading: 'Desde nuestra oficina de Osaka',
      packing: 'Un paquete en preparación con varios pedidos consolidados',
      shop: 'La fachada de una tienda japonesa con faroles',
      fuji: 'El monte Fuji al amanecer',
      plane: 'Un paquete volando al extranjero',
      sakura: 'Cerezos en flor en Osaka',
      torii: 'La puerta de un santuario en Japón',
      instagramHeading: 'Instagram',
    },
    faq: {
      heading: 'Preguntas frecuentes',
      fees: {
        q: '¿Cuánto cuesta su servicio?',
        a: 'Nuestra tarifa es de {{fee}} por artículo, más un {{tax}} de impuesto sobre el precio del producto y la tarifa. Incluye búsqueda, compra, consolidación, embalaje y almacenamiento gratuito. El envío internacional se cobra aparte, después del pesaje. No hay cargos ocultos.',
      },
      storage: {
        q: '¿Cuánto tiempo pueden guardar mis artículos?',
        a: 'El almacenamiento es gratuito hasta {{days}} días, para que juntes compras de varias tiendas en un solo paquete.',
      },
      delivery: {
        q: '¿Cuánto tarda la entrega?',
        a: 'Económico (pequeño paquete): de 15 a 21 días (2 a 3 semanas) a Latinoamérica, EE. UU. y Europa, y alrededor de 1 semana a Asia. Exprés (EMS): de 4 a 10 días hábiles.',
      },
      lost: {
        q: '¿Qué pasa si mi paquete se pierde?',
        a: 'Abrimos una investigación con el servicio postal. Si se confirma la pérdida, reembolsamos el 50 % del valor total de los productos.',
      },
      customs: {
        q: '¿Tengo que pagar aduana?',
        a: 'Los aranceles e impuestos de importación los fija tu país y corren por cuenta del cliente. Para México, Chile, Argentina, Colombia, Perú, España y el resto de la Unión Europea, y Estados Unidos, la calculadora los estima para tu paquete, con la regla y su fuente.',
      },
      payment: {
        q: '¿Cómo puedo pagar?',
        a: 'Con {{methods}}. Tu cotización, el recibo electrónico en tu área de cliente, muestra el monto, nuestros datos bancarios y la referencia que debes escribir en la transferencia.',
      },
      countries: {
        q: '¿A qué países envían?',
        a: 'Directamente a México, Chile, Perú, El Salvador, Costa Rica, España y Argentina, y a Europa, Oceanía y el resto de Asia. A Paraguay, Ecuador, Bolivia y Colombia, por courier vía EE. UU.',
      },
      consolidation: {
        q: '¿Pueden juntar pedidos de distintas tiendas?',
        a: 'Sí. La consolidación es gratuita: juntamos tus artículos en un solo paquete para que pagues un solo envío.',
      },
      howToOrder: {
        q: '¿Cómo hago un pedido?',
        a: 'Inicia sesión y envía los enlaces de los productos en nuestro formulario de solicitud (hasta diez a la vez): te respondemos con la cotización en tu área de cliente y por correo. También puedes enviarnos los enlaces, o una imagen clara, por Instagram, Facebook o WhatsApp.',
      },
    },
    prohibited: 'Antes de pedir: lo que no compramos ni enviamos',
    cta: {
      heading: '¿Encontraste algo en Japón?',
      text: 'Envíanos el enlace en el formulario de solicitud o por mensaje, y te lo cotizamos.',
      button: 'Contáctanos',
    },
  },
  services: {
    title: 'Servicios',
    description: 'Compras personales en Japón, consolidación de paquetes y envío internacional rápido.',
    heading: 'Nuestros servicios',
    lead: 'Compras personales en cualquier tienda japonesa, consolidación gratuita de pedidos de distintas tiendas y envío internacional por correo económico o exprés.',
    overview: {
      heading: 'En tres pasos',
      s1: {
        title: 'Tú eliges',
        text: 'Encuentra lo que quieras en cualquier tienda japonesa y envíanos el enlace en el formulario de solicitud, o por mensaje.',
      },
      s2: {
        title: 'Compramos y juntamos',
        text: 'Lo compramos, lo recibimos en Osaka y lo guardamos mientras sigues comprando.',
      },
      s3: { title: 'Enviamos', text: 'Un solo paquete consolidado, económico o exprés, hasta tu puerta.' },
    },
    cards: {
      heading: 'Lo que hacemos por ti',
      shopping: {
        title: 'Compras personales',
        b1: 'Cualquier tienda de Japón, en línea o física',
        b2: 'Ediciones limitadas, sorteos y preventas',
        b3: 'Una cotización clara antes de pagar',
      },
      consolidation: {
        title: 'Consolidación de paquetes',
        b1: 'Pedidos de distintas tiendas en un solo paquete',
        b2: 'Almacenamiento gratuito durante {{days}} días',
        b3: 'Reembalaje cuidadoso para ahorrar peso y espacio',
      },
      shipping: {
        title: 'Envío rápido',
        b1: 'Exprés por EMS en 4 a 10 días hábiles',
        b2: 'Económico por pequeño paquete para envíos ligeros',
        b3: 'Directo a Latinoamérica, España, EE. UU. y más',
      },
    },
    categories: {
      heading: 'Lo que compran nuestros clientes',
      anime: {
        title: 'Anime y manga',
        i1: 'Figuras y peluches',
        i2: 'Manga y libros de arte',
        i3: 'Exclusivos de tienda',
        i4: 'Cartas coleccionables',
      },
      fashion: {
        title: 'Moda',
        i1: 'Ropa urbana de Harajuku',
        i2: 'Tenis y zapatillas',
        i3: 'Bolsos y accesorios',
        i4: 'Marcas japonesas',
      },
      electronics: {
        title: 'Electrónica',
        i1: 'Cámaras y lentes',
        i2: 'Videojuegos',
        i3: 'Audio',
        i4: 'Modelos solo de Japón',
      },
      traditional: {
        title: 'Tradicional',
        i1: 'Cerámica y vajilla',
        i2: 'Té y matcha',
        i3: 'Kimono y yukata',
        i4: 'Papelería',
      },
    },
  },
  sitePages: {
    questions: '¿Tienes dudas? Escríbenos',
  },
  calculator: {
    title: 'Calculadora (beta)',
    description: 'Calcula el costo de un artículo de Japón y su envío internacional.',
    heading: 'Calculadora (beta)',
    lead: 'Calcula cuánto te cuesta un artículo de Japón, con nuestra tarifa, el impuesto y el envío internacional.',
    disclaimer:
      'Los precios son aproximados. La cotización final y el recibo de envío se confirman después del pesaje.',
    calculate: 'Calcular',
    approx: '≈ {{amount}}',
    noRate: 'No hay tarifa para este peso. Contáctanos y te lo cotizamos.',
    purchase: {
      heading: 'Calculadora de precios en yenes',
      priceLabel: 'Precio del artículo en yenes (por artículo)',
      priceHint: 'El precio que muestra la tienda japonesa, por ejemplo 2500.',
      prompt: 'Ingresa un precio en yenes para ver tu cotización.',
      productCost: 'Costo del producto',
      serviceFee: 'Tarifa de servicio',
      tax: 'Impuesto ({{rate}})',
      total: 'Total',
      equivalents: 'Equivalencias',
      status: 'Total de este artículo: {{total}}',
    },
    shipping: {
      heading: 'Calculadora de envío',
      region: 'Región de destino',
      method: 'Método de envío',
      weight: 'Peso en gramos',
      weightSlider: 'Control deslizante del peso',
      weightHint: 'De {{min}} g a {{max}} g, en pasos de {{step}} g.',
      price: 'Precio del envío',
      status: 'Envío: {{price}}',
      storageLegend: 'Artículos guardados después de su almacenamiento gratis (opcional)',
      storageHint:
        'El almacenamiento es gratis por {{days}} días desde que llega cada artículo; desde el día siguiente cada artículo paga {{fee}} por día, más impuesto, en su recibo de envío.',
      storageItems: 'Cuántos artículos',
      storageDays: 'Días después de los {{days}} gratis',
      storage_one: 'Almacenamiento ({{count}} artículo × {{days}} días × {{fee}})',
      storage_many: 'Almacenamiento ({{count}} artículos × {{days}} días × {{fee}})',
      storage_other: 'Almacenamiento ({{count}} artículos × {{days}} días × {{fee}})',
      storageTax: 'Impuesto al consumo sobre el almacenamiento ({{rate}})',
      total: 'Total del recibo de envío',
      statusWithStorage: 'Envío con almacenamiento: {{price}}',
    },
    quote: {
      heading: 'Simulador de cotización',
      link: 'Enlace al producto (opcional)',
      linkHint:
        'Pega un enlace de una tienda como Mercari o Amazon Japón: leemos su precio por ti. Puedes cambiarlo.',
      lead: 'Todo junto para tu país: compra, tarifas, impuesto y envío estimado.',
      country: 'País de destino',
      directGroup: 'Envío directo',
      courierGroup: 'Courier vía EE. UU.',
      otherGroup: 'Otros países',
      price: 'Precio por artículo en yenes',
      count: 'Número de artículos',
      method: 'Método de envío',
      weight: 'Peso total estimado en gramos',
      prompt: 'Ingresa el precio del artículo para ver la estimación.',
      productCost: 'Productos',
      serviceFee: 'Tarifa de servicio',
      tax: 'Impuesto',
      shipping: 'Envío estimado',
      deliveryTime: 'Tiempo de entrega',
      total: 'Total estimado',
      courierNote: 'Enviamos a EE. UU.; el courier desde EE. UU. hasta {{country}} se cotiza aparte.',
      status: 'Total estimado: {{total}}',
    },
    regions: {
      asia: 'Asia',
      europe_canada_mexico: 'Europa, Canadá y México',
      usa: 'EE. UU.',
      central_south_america: 'Centro y Sudamérica',
    },
    methods: {
      economic: 'Económico (pequeño paquete)',
      express: 'Exprés (EMS)',
    },
    delivery: {
      economic: '15–21 días (2–3 semanas)',
      economic_asia: 'Alrededor de 1 semana',
      express: '4–10 días hábiles',
    },
    errors: {
      price: {
        required: 'Ingresa un precio en yenes.',
        notNumber: 'Ingresa el precio como un número de yenes, por ejemplo 2500.',
        separators: 'No pudimos saber dónde van los miles: escribe 2500, 2.500 o 2,500.',
        notWhole: 'El yen no tiene decimales: ingresa un número entero.',
        negative: 'El precio no puede ser negativo.',
        tooLarge: 'Eso es más de {{max}}. Revisa el precio o contáctanos para pedidos grandes.',
      },
      weight: {
        required: 'Ingresa un peso en gramos.',
        notNumber: 'Ingresa el peso como un número de gramos.',
        separators: 'No pudimos saber dónde van los miles: escribe 1500, 1.500 o 1,500.',
        outOfRange: 'Para este método, ingresa un peso de {{min}} g a {{max}} g.',
        offStep: 'Los pesos van en pasos de {{step}} g.',
      },
      count: {
        required: 'Ingresa el número de artículos.',
        notWhole: 'Ingresa un número entero de artículos.',
        outOfRange: 'Ingresa de 1 a {{max}} artículos.',
      },
      storageItems: 'Ingresa un número entero de artículos, de 0 a {{max}}.',
      storageDays: 'Ingresa un número entero de días, de 0 a {{max}}.',
    },
    availability: {
      unavailable: '{{method}} no está disponible para este país.',
      none: 'Hoy no hay un método de envío disponible para este país. Contáctanos y buscamos una opción.',
    },
  },
  storeGuide: {
    title: 'Guía de tiendas',
    description:
      'Tiendas en línea japonesas donde compramos: marketplaces, anime, figuras, moda, hogar y belleza.',
    heading: 'Guía de tiendas',
    lead: 'Tiendas en línea japonesas donde puedes encontrar lo que buscas. Envíanos el enlace y lo compramos por ti.',
    filterLabel: 'Categoría',
    all: 'Todas las categorías',
    apply: 'Mostrar',
    count_one: '{{count}} tienda',
    count_other: '{{count}} tiendas',
    count_many: '{{count}} tiendas',
    opensInNewTab: '(se abre en una pestaña nueva)',
  },
  contact: {
    title: 'Contacto',
    description: 'Escríbenos con el formulario, por correo electrónico o por nuestras redes sociales.',
    heading: 'Contáctanos',
    lead: '¿Dudas sobre un pedido, una tienda o un envío? Escríbenos y te responderemos lo antes posible.',
    opensInNewTab: '(se abre en una pestaña nueva)',
    channels: {
      heading: 'Otras formas de contactarnos',
      email: 'Correo electrónico',
      facebook: 'Facebook',
      instagram: 'Instagram',
      whatsapp: 'WhatsApp',
      whatsappHint:
        'Envíanos los enlaces de lo que quieres por mensaje, si lo prefieres al formulario de solicitud.',
    },
    staff: {
      heading: 'Quién te responde',
      englishMarket: {
        role: 'Equipo de creación de contenido · Responsable del mercado en inglés',
        text: 'Atiende a los clientes que escriben en inglés y prepara nuestras guías y publicaciones.',
      },
      leader: {
        role: 'Líder de creación de contenido',
        text: 'Dirige el equipo que te atiende en español y crea nuestro contenido.',
      },
    },
    form: {
      heading: 'Envíanos un mensaje',
      name: 'Nombre',
      email: 'Correo electrónico',
      subject: 'Asunto',
      subjects: {
        general: 'Consulta general',
        order: 'Ayuda con un pedido',
        shipping: 'Pregunta sobre envíos',
        product: 'Información de producto',
        other: 'Otro',
      },
      message: 'Mensaje',
      messageHint: 'Hasta {{max}} caracteres.',
      botcheck: 'Deja esta casilla vacía',
      send: 'Enviar mensaje',
      sending: 'Enviando…',
      sentTitle: 'Mensaje enviado',
      sentText: 'Gracias por escribirnos. Te responderemos por correo electrónico lo antes posible.',
      sendAnother: 'Enviar otro mensaje',
      errors: {
        required: 'Este campo es obligatorio.',
        email: 'Ingresa un correo electrónico válido, como nombre@ejemplo.com.',
        tooLong: 'Usa como máximo {{max}} caracteres.',
        invalidCharacters: 'Quita los caracteres no válidos.',
        subject: 'Elige un asunto.',
        unreadable: 'No pudimos leer el formulario. Inténtalo de nuevo.',
      },
    },
  },
} satisfies SpanishStrings<typeof en>
