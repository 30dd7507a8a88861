import type { SitePageSlug } from '#core/site-pages/site-page-text.ts'

/**
 * The seeded text of the public pages staff edit (ADR 038), in both languages. Written for this
 * business: a proxy-shopping service in Osaka shipping by Japan Post (EMS, small packet) and by
 * courier via the USA. The rules of what cannot travel are Japan Post's and the airlines' for
 * international mail (lithium batteries, flammable liquids, aerosols, weapons…); what we do not
 * buy is our own policy. The seller disclosure follows the items Japan's Act on Specified
 * Commercial Transactions (特定商取引法, article 11) asks a shop selling at a distance to show.
 *
 * `{{…}}` are the shop's current settings, filled in when the page is shown
 * (core/site-pages/site-page-text.ts), so the disclosure never disagrees with them.
 */
export const SEED_SITE_PAGES: Record<
  SitePageSlug,
  { title: { es: string; en: string }; lead: { es: string; en: string }; body: { es: string; en: string } }
> = {
  'prohibited-items': {
    title: {
      es: 'Lo que no compramos ni enviamos',
      en: 'What we cannot buy or ship',
    },
    lead: {
      es: 'El correo de Japón, las aerolíneas y las aduanas prohíben algunos productos en los envíos internacionales, y otros no los compramos. Revisa esta lista antes de enviarnos una solicitud; si tienes dudas, pregúntanos primero.',
      en: 'Japan Post, airlines and customs forbid some goods in international mail, and there are others we do not buy. Check this list before you send us a request; if in doubt, ask us first.',
    },
    body: {
      es: `## No podemos enviarlos: el correo los rechaza
- Baterías de litio sueltas, baterías externas (power banks) y baterías de repuesto. Los aparatos con batería incorporada dependen del destino y del método: pregúntanos antes de pedirlos.
- Líquidos y geles inflamables: perfumes y colonias con alcohol, esmalte y quitaesmalte de uñas, combustible para encendedores.
- Aerosoles y sprays de cualquier tipo, cartuchos de gas, encendedores y fósforos.
- Fuegos artificiales, petardos y cualquier explosivo.
- Armas y sus piezas: armas de fuego, réplicas y armas de airsoft, municiones, cuchillos y espadas con filo, paralizadores y gas pimienta.
- Venenos, corrosivos, pinturas y productos químicos peligrosos; imanes potentes.
- Medicamentos, drogas y suplementos con ingredientes controlados.
- Dinero en efectivo, cheques, oro, piedras preciosas y otros objetos de valor.
- Animales y plantas vivos, semillas y tierra; alimentos frescos o perecederos.

## Líquidos que no son inflamables
Champús, salsas, tintas y cosméticos líquidos pueden viajar si están bien cerrados y dentro de los límites del correo. Los empacamos con cuidado, pero una fuga puede dañar el resto del paquete: para los frágiles te recomendamos el envío exprés.

## No los compramos
- Falsificaciones y copias no oficiales de productos de marca.
- Productos robados o que una tienda vende de forma ilegal.
- Contenido para adultos.
- Alcohol y tabaco, incluidos los cigarrillos electrónicos y el tabaco calentado.
- Productos de especies protegidas (marfil, coral, algunas pieles).
- Todo lo que la ley de Japón o la de tu país prohíbe importar.

## Según tu país
Cada país prohíbe o limita más cosas: alimentos, cosméticos, medicamentos, aparatos con radio, algunos juguetes. La aduana puede retener o devolver un paquete, y los aranceles corren por cuenta del cliente. Revisa las reglas de la aduana de tu país; si sabemos de un límite para un producto que nos pides, te lo decimos antes de cotizar.`,
      en: `## We cannot ship these: the post refuses them
- Loose lithium batteries, power banks and spare batteries. Devices with a built-in battery depend on the destination and the method: ask us before you request one.
- Flammable liquids and gels: perfumes and colognes with alcohol, nail polish and remover, lighter fluid.
- Aerosols and sprays of any kind, gas cartridges, lighters and matches.
- Fireworks, crackers and anything explosive.
- Weapons and their parts: firearms, replicas and airsoft guns, ammunition, knives and swords with a blade, stun guns and pepper spray.
- Poisons, corrosives, paints and dangerous chemicals; strong magnets.
- Medicines, drugs and supplements with controlled ingredients.
- Cash, cheques, gold, precious stones and other valuables.
- Live animals and plants, seeds and soil; fresh or perishable food.

## Liquids that are not flammable
Shampoos, sauces, inks and liquid cosmetics can travel when well sealed and within the post's limits. We pack them with care, but a leak can damage the rest of the parcel: for fragile ones we recommend express shipping.

## We do not buy these
- Counterfeits and unofficial copies of branded goods.
- Stolen goods, or goods a shop sells illegally.
- Adult content.
- Alcohol and tobacco, including e-cigarettes and heated tobacco.
- Goods from protected species (ivory, coral, some leathers).
- Anything the law of Japan or of your country forbids to import.

## Depending on your country
Every country forbids or limits more: food, cosmetics, medicines, devices with a radio, some toys. Customs may hold or return a parcel, and duties are the customer's. Check your country's customs rules; if we know of a limit for an item you request, we tell you before we quote it.`,
    },
  },
  'seller-disclosure': {
    title: {
      es: 'Datos del vendedor (Ley de Transacciones Comerciales Específicas)',
      en: 'Seller disclosure (Act on Specified Commercial Transactions)',
    },
    lead: {
      es: 'Los datos que la ley japonesa pide publicar a toda tienda que vende a distancia (特定商取引法に基づく表記).',
      en: 'The details Japanese law asks every shop selling at a distance to publish (特定商取引法に基づく表記).',
    },
    body: {
      es: `## Vendedor (販売業者)
{{company.name}}

## Responsable (運営統括責任者)
El representante de {{company.name}}. Te damos su nombre sin demora si lo pides por correo.

## Dirección (所在地)
{{company.address}}

## Teléfono (電話番号)
Atendemos por correo y por nuestros canales de mensajería. Te damos nuestro número de teléfono sin demora si lo pides por correo.

## Correo electrónico (メールアドレス)
{{company.email}}

## Número de registro de factura (登録番号)
{{company.taxRegistrationId}}

## Precio (販売価格)
El precio de cada producto es el de la tienda japonesa, en yenes, y aparece en tu cotización antes de que pagues.

## Cargos además del precio (商品代金以外の必要料金)
- Nuestra tarifa de servicio: {{serviceFee}} por producto.
- El impuesto al consumo de Japón: {{taxRate}} sobre el precio del producto más la tarifa de servicio.
- El envío de la tienda a nuestra oficina de Osaka, cuando la tienda lo cobra, al costo.
- El envío internacional, según el peso, el método y el destino, en un recibo de envío aparte después del pesaje y la consolidación.
- El almacenamiento después de los {{freeStorageDays}} días gratis: {{storageFeePerDay}} por día.
- Las comisiones bancarias de las transferencias, y los aranceles e impuestos de importación del país de destino, corren por cuenta del cliente.

## Formas de pago (支払方法)
Transferencia bancaria; tarjeta de crédito o débito y PayPal cuando tu cotización los ofrece.

## Cuándo pagar (支払時期)
La cotización de compra, dentro de los {{daysToPay}} días siguientes a su emisión: compramos los productos cuando está pagada. El recibo de envío, después de empacar y pesar tus productos: enviamos el paquete cuando está pagado.

## Entrega (引渡時期)
Compramos los productos cuando la cotización está pagada, por lo general en 2 días hábiles. Las tiendas tardan por lo general de 2 a 7 días en llegar a nuestra oficina (las preventas, en su fecha de lanzamiento). Cuando pagas el recibo de envío, enviamos en 3 días hábiles: económico de 2 a 3 semanas, exprés (EMS) de 4 a 10 días hábiles.

## Cancelaciones y devoluciones (返品・キャンセル)
- Antes de pagar una cotización puedes cancelar la solicitud sin costo.
- Una vez comprado un producto no podemos cancelarlo: las tiendas de Japón casi nunca aceptan devoluciones. Si la tienda acepta una devolución, sus costos (envío y cargos) corren por cuenta del cliente.
- Si un producto llega a nuestra oficina dañado o distinto de lo que anunciaba la tienda, te mandamos fotos y le pedimos a la tienda el cambio o el reembolso en tu nombre; lo que la tienda reembolsa te lo reembolsamos.
- Si la tienda no puede entregar un producto que ya pagaste, te reembolsamos su precio, la tarifa de servicio y el impuesto.
- Si el correo confirma la pérdida de un paquete, reembolsamos el 50 % del valor total de sus productos.`,
      en: `## Seller (販売業者)
{{company.name}}

## Person in charge (運営統括責任者)
The representative of {{company.name}}. We give you their name without delay if you ask by e-mail.

## Address (所在地)
{{company.address}}

## Phone (電話番号)
We answer by e-mail and on our messaging channels. We give you our phone number without delay if you ask by e-mail.

## E-mail (メールアドレス)
{{company.email}}

## Invoice registration number (登録番号)
{{company.taxRegistrationId}}

## Price (販売価格)
The price of each item is the Japanese shop's, in yen, and shows on your quote before you pay.

## Charges besides the price (商品代金以外の必要料金)
- Our service fee: {{serviceFee}} per item.
- Japan's consumption tax: {{taxRate}} of the item price plus the service fee.
- The shop's delivery to our Osaka office, when the shop charges it, at cost.
- International shipping, by weight, method and destination, on a separate shipping receipt after weighing and consolidation.
- Storage after the {{freeStorageDays}} free days: {{storageFeePerDay}} a day.
- Bank charges for transfers, and the destination country's duties and import taxes, are the customer's.

## Payment methods (支払方法)
Bank transfer; credit or debit card and PayPal when your quote offers them.

## When to pay (支払時期)
The purchase quote, within {{daysToPay}} days of its issue: we buy the items once it is paid. The shipping receipt, after your items are packed and weighed: we ship the parcel once it is paid.

## Delivery (引渡時期)
We buy the items once the quote is paid, usually within 2 business days. Shops usually take 2 to 7 days to reach our office (pre-orders: on their release date). Once you pay the shipping receipt, we ship within 3 business days: economy 2 to 3 weeks, express (EMS) 4 to 10 business days.

## Cancellations and returns (返品・キャンセル)
- Before you pay a quote you can cancel the request at no cost.
- Once an item is bought we cannot cancel it: shops in Japan rarely accept returns. If the shop accepts a return, its costs (shipping and fees) are the customer's.
- If an item reaches our office damaged or different from the shop's listing, we send you photos and ask the shop for an exchange or a refund on your behalf; what the shop refunds, we refund to you.
- If the shop cannot supply an item you already paid for, we refund its price, the service fee and the tax.
- If the post confirms a parcel lost, we refund 50 % of the total value of its products.`,
    },
  },
}
