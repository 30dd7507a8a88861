/**
 * Demo reviews: examples of what customers write, stored marked as demo and shown with a
 * "Demo data" label until real reviews replace them.
 */
export const SEED_REVIEWS = [
  {
    name: 'Daniela R.',
    country: 'MX',
    rating: 5,
    language: 'es',
    reviewedOn: '2026-09-14',
    text: 'Pedí figuras de una preventa en Japón y llegaron perfectas a Guadalajara. Me avisaron cuando llegaron a la oficina y juntaron todo en un solo paquete.',
  },
  {
    name: 'Tomás V.',
    country: 'CL',
    rating: 5,
    language: 'es',
    reviewedOn: '2026-08-30',
    text: 'La cotización fue clara desde el principio: precio, tarifa e impuesto. El envío económico tardó unas tres semanas a Santiago.',
  },
  {
    name: 'Lucía M.',
    country: 'ES',
    rating: 4,
    language: 'es',
    reviewedOn: '2026-07-22',
    text: 'Muy buena atención por Instagram. Guardaron mis compras casi un mes hasta que terminé de comprar en varias tiendas.',
  },
  {
    name: 'Carlos P.',
    country: 'PE',
    rating: 5,
    language: 'es',
    reviewedOn: '2026-10-03',
    text: 'Consiguieron un producto de edición limitada que no encontraba en ningún otro lado. Volveré a comprar.',
  },
  {
    name: 'Jessica T.',
    country: 'US',
    rating: 5,
    language: 'en',
    reviewedOn: '2026-09-02',
    text: 'They bought a sold-out Pokémon Center plush for me and shipped it by EMS. Arrived in six days, very well packed.',
  },
  {
    name: 'Ryan K.',
    country: 'CA',
    rating: 4,
    language: 'en',
    reviewedOn: '2026-06-18',
    text: 'Clear receipts and quick answers on WhatsApp. Consolidating three shops into one box saved me a lot on shipping.',
  },
] as const
