import type { ImportBand, ImportRule } from '#core/landed-cost/import-rules.ts'
import type { ShippingMethod } from '#core/pricing/pricing.ts'

/**
 * The seeded import rules and the methods each destination can use (issue 30, ADR 046), as
 * published by the sources named in each rule (gathered 2026-11, ../shared/research/
 * landed-cost-and-latam-payments.md). Every figure the sources do not settle is written in the
 * rule's `uncertain` text, never guessed into a rate: the item's own tariff line (`itemTariff`)
 * is said, not estimated. Admins correct them by adding a version (/admin-dashboard/import-rules).
 */

export type SeedImportRule = { country: string; effectiveFrom: string; rule: ImportRule }

const band = (partial: Partial<ImportBand> & Pick<ImportBand, 'upTo'>): ImportBand => ({
  dutyBp: 0,
  vatBp: 0,
  itemTariff: false,
  flat: false,
  perCategoryMinor: 0,
  formal: false,
  ...partial,
})

const noLimits = {
  shipmentsPerYear: null,
  valuePerYear: null,
  limitsApplyTo: 'everyone',
  maxUnitsPerItem: null,
  taxIdRequired: false,
} as const

const sure = { es: '', en: '' }

const US_SOURCES = [
  'https://www.mallorygroup.com/executive-order-suspending-duty-free-de-minimis-treatment/',
  'https://taxnews.ey.com/news/2026-0491-presidential-proclamation-imposing-10-percent-duties-and-other-actions',
  'https://natlawreview.com/article/post-scotus-tariff-reset-trump-replaces-ieepa-duties-temporary-section-122-10',
].join('\n')

const US_NOTE = {
  es: 'Estados Unidos ya no tiene monto libre de impuestos: desde el 29 de agosto de 2025 todo paquete paga arancel, sin importar su valor. El arancel depende del tipo de artículo. Japan Post no acepta mercancía para Estados Unidos: enviamos solo por courier.',
  en: 'The USA no longer has a duty-free amount: since 29 August 2025 every parcel pays duty, whatever its value. The duty depends on the kind of item. Japan Post does not accept goods for the USA: we ship by courier only.',
}

const EU_SOURCES = [
  'https://www.correos.es/es/en/individuals/receive/customs-clearance-for-imports',
  'https://regfollower.com/?p=78434',
  'https://www.spielwarenmesse.de/en/mag/toy-market-news/council-agrees-to-levy-customs-duty-on-small-parcels',
  'https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en',
].join('\n')

/** Standard VAT rates of the EU member states (European Commission, read 2026-11). */
// biome-ignore format: a table reads better as one line per country group
const EU_VAT_BP: Record<string, number> = {
  AT: 2000, BE: 2100, BG: 2000, HR: 2500, CY: 1900, CZ: 2100, DK: 2500, EE: 2400, FI: 2550,
  FR: 2000, DE: 1900, GR: 2400, HU: 2700, IE: 2300, IT: 2200, LV: 2100, LT: 2100, LU: 1700,
  MT: 1800, NL: 2100, PL: 2300, PT: 2300, RO: 2100, SK: 2300, SI: 2200, ES: 2100, SE: 2500,
}

function euRule(country: string, vatBp: number, withCategoryDuty: boolean): ImportRule {
  const spain = country === 'ES'
  return {
    currency: 'EUR',
    valueBasis: 'goods_and_shipping',
    bands: [
      band({ upTo: 150, vatBp, perCategoryMinor: withCategoryDuty ? 300 : 0 }),
      band({ upTo: null, vatBp, itemTariff: true }),
    ],
    handlingFeeMinor: 0,
    collectedBy: 'carrier',
    taxName: spain ? 'IVA' : 'VAT',
    ...noLimits,
    note: {
      es: `${spain ? 'En España pagas IVA' : 'En la Unión Europea pagas IVA'} desde el primer euro, también por el envío. Nosotros no lo cobramos: te lo pide el correo o el courier al entregar, junto con su cargo por el trámite de aduana.${withCategoryDuty ? ' Desde el 1 de julio de 2026, los paquetes de menos de 150 EUR pagan además 3 EUR de arancel por cada tipo de artículo.' : ''} Sobre 150 EUR hay declaración completa y el arancel depende del artículo.${spain ? ' Canarias, Ceuta y Melilla no pagan IVA sino sus propios impuestos (IGIC en Canarias): esta estimación no aplica.' : ''}`,
      en: `${spain ? 'In Spain you pay VAT' : 'In the European Union you pay VAT'} from the first euro, on the shipping too. We do not collect it: the post or the courier asks you for it on delivery, with their fee for clearing customs.${withCategoryDuty ? ' From 1 July 2026, parcels under EUR 150 also pay EUR 3 of duty for each kind of item.' : ''} Above EUR 150 there is a full declaration and the duty depends on the item.${spain ? ' The Canary Islands, Ceuta and Melilla pay their own taxes instead of VAT (IGIC in the Canaries): this estimate does not apply.' : ''}`,
    },
    uncertain: {
      es: 'El cargo del correo o del courier por el trámite de aduana no está incluido: cada uno fija el suyo.',
      en: 'The post’s or courier’s fee for clearing customs is not included: each sets its own.',
    },
    source: EU_SOURCES,
  }
}

export const SEED_IMPORT_RULES: readonly SeedImportRule[] = [
  {
    country: 'US',
    effectiveFrom: '2026-02-24',
    rule: {
      currency: 'USD',
      valueBasis: 'goods',
      bands: [band({ upTo: null, dutyBp: 1000, itemTariff: true })],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'VAT',
      ...noLimits,
      note: {
        es: `${US_NOTE.es} Del 24 de febrero al 24 de julio de 2026 se suma un recargo temporal del 10 %.`,
        en: `${US_NOTE.en} From 24 February to 24 July 2026 a temporary 10 % surcharge is added.`,
      },
      uncertain: {
        es: 'El arancel normal de cada artículo no está incluido: depende de su clasificación. El courier puede sumar su cargo por el trámite de aduana.',
        en: 'Each item’s normal duty is not included: it depends on its classification. The courier may add its fee for clearing customs.',
      },
      source: US_SOURCES,
    },
  },
  {
    country: 'US',
    effectiveFrom: '2026-07-25',
    rule: {
      currency: 'USD',
      valueBasis: 'goods',
      bands: [band({ upTo: null, itemTariff: true })],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'VAT',
      ...noLimits,
      note: US_NOTE,
      uncertain: {
        es: 'El arancel normal de cada artículo no está incluido: depende de su clasificación. El recargo temporal del 10 % terminó el 24 de julio de 2026; no confirmamos si otro lo reemplazó. El courier puede sumar su cargo por el trámite de aduana.',
        en: 'Each item’s normal duty is not included: it depends on its classification. The temporary 10 % surcharge ended on 24 July 2026; we have not confirmed whether another replaced it. The courier may add its fee for clearing customs.',
      },
      source: US_SOURCES,
    },
  },
  {
    country: 'MX',
    effectiveFrom: '2025-08-15',
    rule: {
      currency: 'USD',
      valueBasis: 'goods_and_shipping',
      bands: [band({ upTo: 2500, dutyBp: 3350, flat: true }), band({ upTo: null, formal: true })],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'IVA',
      ...noLimits,
      note: {
        es: 'Desde el 15 de agosto de 2025, los paquetes de hasta 2.500 USD de países sin tratado con tasa preferente pagan una tasa global del 33,5 % (arancel e IVA juntos). Sobre 2.500 USD se necesita un pedimento formal.',
        en: 'Since 15 August 2025, parcels up to USD 2,500 from countries without a preferential trade-agreement rate pay one global rate of 33.5 % (duty and VAT together). Above USD 2,500 a formal import entry is needed.',
      },
      uncertain: {
        es: 'No está confirmado si los productos japoneses pagan una tasa menor por el acuerdo Japón–México, ni si los paquetes por correo (Japan Post a Correos de México) siguen la regla postal anterior (exentos hasta 50 USD).',
        en: 'Not confirmed: whether Japanese goods pay a lower rate under the Japan–Mexico agreement, and whether parcels sent by post (Japan Post to Correos de México) follow the older postal rule (exempt up to USD 50).',
      },
      source: [
        'https://asnews.mx/noticias/procedimiento-simplificado-de-mensajeria-y-paqueteria-impacto-de-las-nuevas',
        'https://thelogisticsworld.com/historico/aminoran-el-valor-de-importaciones-por-servicio-postal',
      ].join('\n'),
    },
  },
  {
    country: 'CL',
    effectiveFrom: '2025-10-25',
    rule: {
      currency: 'USD',
      valueBasis: 'goods_and_shipping',
      bands: [band({ upTo: 500, vatBp: 1900 }), band({ upTo: null, dutyBp: 600, vatBp: 1900 })],
      handlingFeeMinor: 0,
      collectedBy: 'customs',
      taxName: 'IVA',
      ...noLimits,
      note: {
        es: 'Desde el 25 de octubre de 2025, toda compra del extranjero paga 19 % de IVA, también las de menos de 500 USD. Sobre 500 USD se suma un arancel del 6 %. Nosotros no cobramos el IVA: te lo pide Aduanas de Chile antes de entregar el paquete.',
        en: 'Since 25 October 2025 every purchase from abroad pays 19 % VAT, including those under USD 500. Above USD 500 a 6 % duty is added. We do not collect the VAT: Chile’s customs ask you for it before the parcel is delivered.',
      },
      uncertain: sure,
      source: [
        'https://www.meganoticias.cl/dato-util/503473-cobro-iva-compras-internacionales-aliexpress-temu-shoope-amazon-dcv-24-10-2025.html',
        'https://www.dedecon.cl/contenido/IVA_COMPRAS_DIGITALES',
      ].join('\n'),
    },
  },
  {
    country: 'AR',
    effectiveFrom: '2024-12-01',
    rule: {
      currency: 'USD',
      valueBasis: 'goods',
      bands: [
        band({ upTo: 400, vatBp: 2100 }),
        band({ upTo: 3000, vatBp: 2100, itemTariff: true }),
        band({ upTo: null, formal: true }),
      ],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'IVA',
      shipmentsPerYear: 5,
      valuePerYear: null,
      limitsApplyTo: 'everyone',
      maxUnitsPerItem: 3,
      taxIdRequired: true,
      note: {
        es: 'Régimen de pequeños envíos: solo para uso personal, hasta 3.000 USD por envío, 5 envíos al año, como máximo 3 unidades del mismo artículo, y necesitas CUIT y clave fiscal. Los primeros 400 USD no pagan arancel (sí el 21 % de IVA). Después de recibirlo, debes declarar el envío en ARCA dentro de 30 días.',
        en: 'Small-parcel regime: personal use only, up to USD 3,000 a shipment, 5 shipments a year, at most 3 units of one item, and you need a CUIT tax id. The first USD 400 pay no duty (21 % VAT applies). After receiving it you must declare the shipment with ARCA within 30 days.',
      },
      uncertain: {
        es: 'Sobre 400 USD, la parte que excede paga además el arancel propio del artículo (0 a 35 %) y la tasa de estadística: no están incluidos.',
        en: 'Above USD 400, the part over it also pays the item’s own duty (0 to 35 %) and the statistics fee: not included.',
      },
      source: [
        'https://newsweek.com.ar/?p=83282',
        'https://www.iproup.com/economia-digital/52566-arca-flexibiliza-las-compras-via-courier-nuevos-pesos-cantidades-y-montos',
      ].join('\n'),
    },
  },
  {
    country: 'CO',
    effectiveFrom: '2025-01-01',
    rule: {
      currency: 'USD',
      valueBasis: 'goods',
      bands: [band({ upTo: 200 }), band({ upTo: null, dutyBp: 1000, vatBp: 1900 })],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'IVA',
      ...noLimits,
      note: {
        es: 'Los envíos de hasta 200 USD no pagan arancel ni IVA. Sobre 200 USD pagan 10 % de arancel más 19 % de IVA.',
        en: 'Shipments up to USD 200 pay no duty and no VAT. Above USD 200 they pay 10 % duty plus 19 % VAT.',
      },
      uncertain: {
        es: 'Esta regla ya regía antes de esta fecha; es la primera en que nuestras fuentes la confirman.',
        en: 'This rule was in force before this date; it is the first on which our sources confirm it.',
      },
      source: [
        'https://noticiasbq.com/colombia/envios-bajo-modalidad-de-trafico-postal-o-urgentes-menores-a-us200-no-pagaran-arancel',
        'https://decconsultores.com/enviosusd200/',
      ].join('\n'),
    },
  },
  {
    country: 'CO',
    effectiveFrom: '2026-01-01',
    rule: {
      currency: 'USD',
      valueBasis: 'goods',
      bands: [
        band({ upTo: 50 }),
        band({ upTo: 200, vatBp: 1900 }),
        band({ upTo: null, dutyBp: 1000, vatBp: 1900 }),
      ],
      handlingFeeMinor: 0,
      collectedBy: 'carrier',
      taxName: 'IVA',
      ...noLimits,
      note: {
        es: 'Desde el 1 de enero de 2026, solo los envíos de hasta 50 USD están libres de IVA; hasta 200 USD no pagan arancel pero sí 19 % de IVA. Sobre 200 USD pagan 10 % de arancel más 19 % de IVA.',
        en: 'Since 1 January 2026 only shipments up to USD 50 are free of VAT; up to USD 200 they pay no duty but 19 % VAT. Above USD 200 they pay 10 % duty plus 19 % VAT.',
      },
      uncertain: {
        es: 'El límite de 50 USD viene de un decreto de emergencia (Decreto 1474 de 2025) que puede ser anulado: revisa su vigencia.',
        en: 'The USD 50 limit comes from an emergency decree (Decree 1474 of 2025) that may be struck down: check that it is still in force.',
      },
      source: [
        'https://www.cronista.com/colombia/finanzas-y-economia/desde-ahora-las-compras-por-amazon-shein-y-temu-deberan-pagar-iva-cual-es-el-nuevo-limite/',
        'https://decconsultores.com/enviosusd200/',
      ].join('\n'),
    },
  },
  {
    country: 'PE',
    effectiveFrom: '2025-05-28',
    rule: {
      currency: 'USD',
      valueBasis: 'goods_and_shipping',
      bands: [
        band({ upTo: 200 }),
        band({ upTo: 2000, dutyBp: 400, vatBp: 1800 }),
        band({ upTo: null, formal: true }),
      ],
      handlingFeeMinor: 0,
      collectedBy: 'customs',
      taxName: 'IGV',
      shipmentsPerYear: 3,
      valuePerYear: 1000,
      limitsApplyTo: 'without_tax_id',
      maxUnitsPerItem: null,
      taxIdRequired: false,
      note: {
        es: 'Los envíos de hasta 200 USD no pagan impuestos. De 200 a 2.000 USD pagan 4 % más IGV (18 %). Si compras solo con tu DNI (sin RUC), puedes importar 3 veces al año y hasta 1.000 USD en total.',
        en: 'Shipments up to USD 200 pay no taxes. From USD 200 to 2,000 they pay 4 % plus IGV (18 %). If you buy with only your national id (DNI, no RUC tax id), you may import 3 times a year and up to USD 1,000 in all.',
      },
      uncertain: {
        es: 'Esta regla ya regía antes de esta fecha; SUNAT estudia cobrar impuestos también bajo 200 USD.',
        en: 'This rule was in force before this date; SUNAT is considering taxing shipments under USD 200 too.',
      },
      source:
        'https://larepublica.pe/economia/2025/05/28/este-es-el-monto-maximo-que-establece-sunat-para-realizar-compras-de-productos-por-internet-sin-pagar-impuestos-en-2025-atmp-916216',
    },
  },
  ...Object.entries(EU_VAT_BP).flatMap(([country, vatBp]) => [
    { country, effectiveFrom: '2021-07-01', rule: euRule(country, vatBp, false) },
    { country, effectiveFrom: '2026-07-01', rule: euRule(country, vatBp, true) },
  ]),
]

/** Japan Post stopped taking goods for the USA and its territories (research, 2025). */
const JAPAN_POST_USA_STOP = {
  es: 'Japan Post no acepta mercancía para Estados Unidos desde el 27 de agosto de 2025: enviamos solo por courier, con la tarifa Express.',
  en: 'Japan Post has not accepted goods for the USA since 27 August 2025: we ship by courier only, at the Express rate.',
}

export type SeedMethodRule = {
  country: string
  method: ShippingMethod
  available: boolean
  note: { es: string; en: string }
  source: string
  effectiveFrom: string
}

const JAPAN_POST_SOURCE = 'https://www.post.japanpost.jp/int/information/2025/0515_01_en.html'

/**
 * Destinations that cannot use a method today. A country and method without a row can use it.
 * The four countries sent by courier via the USA travel through a US address, so they meet the
 * same stop.
 */
export const SEED_METHOD_RULES: readonly SeedMethodRule[] = [
  ...['US', 'PR', 'GU', 'AS', 'MP', 'VI'].map((country) => ({
    country,
    method: 'economic' as const,
    available: false,
    note: JAPAN_POST_USA_STOP,
    source: JAPAN_POST_SOURCE,
    effectiveFrom: '2025-08-27',
  })),
  ...['PY', 'EC', 'BO', 'CO'].map((country) => ({
    country,
    method: 'economic' as const,
    available: false,
    note: {
      es: 'Este destino viaja por Estados Unidos, y Japan Post no acepta mercancía para Estados Unidos desde el 27 de agosto de 2025: enviamos solo por courier, con la tarifa Express.',
      en: 'This destination travels through the USA, and Japan Post has not accepted goods for the USA since 27 August 2025: we ship by courier only, at the Express rate.',
    },
    source: JAPAN_POST_SOURCE,
    effectiveFrom: '2025-08-27',
  })),
]
