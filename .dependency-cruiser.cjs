/**
 * The import rules between the parts of the code (`npm run lint:deps`, run by `npm run lint`, so
 * by CI). Biome's `noRestrictedImports` keeps each layer to its libraries (core/ without the web
 * framework, app/ without the database); these rules keep the areas of core/ in one order, so
 * none of them forms a cycle with another and a newcomer can read them bottom-up
 * (docs/decisions/043-core-areas-in-layers.md).
 *
 * An area imports only areas of a lower layer. Type-only imports are left out: they vanish when
 * the code runs and let a lower area name the shape of a higher one's dependency (the
 * `OrderDeps` of core/orders names the payment providers' type).
 */

/** Tests set a scene across areas (a shipment needs a paid request); the rules are for the code they test. */
const TESTS = '\\.test\\.tsx?$'

/** core/ areas, lowest first. An area may import the areas of the layers below its own. */
const LAYERS = [
  ['money', 'preferences', 'reviews'],
  ['shared'],
  ['analytics', 'audit', 'balance-ledger', 'contact', 'customers', 'uploads', 'whatsapp'],
  ['accounts', 'notifications', 'settings', 'users'],
  ['catalog', 'jobs', 'pricing', 'site-pages'],
  ['landed-cost', 'link-preview'],
  ['billing'],
  ['orders'],
  ['warehouse'],
  ['shipping'],
  ['payments'],
  ['balance', 'conversations'],
  ['seed'],
]

const layerRules = LAYERS.flatMap((areas, index) => {
  const notBelow = LAYERS.slice(index).flat()
  return areas.map((area) => ({
    name: `core-layers-${area}`,
    comment: `core/${area} may import only areas of a lower layer (.dependency-cruiser.cjs LAYERS), not ${notBelow.filter((other) => other !== area).join(', ')}.`,
    severity: 'error',
    from: { path: `^core/${area}/`, pathNot: TESTS },
    to: {
      path: `^core/(${notBelow.filter((other) => other !== area).join('|')})/`,
      dependencyTypesNot: ['type-only'],
    },
  }))
})

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A module that imports itself through others: the order of loading decides what it sees.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'core-area-not-in-layers',
      comment: 'Every folder of core/ is an area with a place in LAYERS (.dependency-cruiser.cjs).',
      severity: 'error',
      from: { path: `^core/(?!(${LAYERS.flat().join('|')})/)[^/]+/` },
      to: {},
    },
    ...layerRules,
    {
      name: 'db-below-core',
      comment: 'db/ holds the schema, the client and seed data; it does not import core/, app/ or server/.',
      severity: 'error',
      from: { path: '^db/', pathNot: TESTS },
      to: { path: '^(core|app|server)/' },
    },
    {
      name: 'core-below-the-web',
      comment: 'core/ does not know the web framework or the server (Biome says the same per import).',
      severity: 'error',
      from: { path: '^core/', pathNot: TESTS },
      to: { path: '^(app|server)/' },
    },
    {
      name: 'production-not-tests',
      comment: 'Production code does not import the test support.',
      severity: 'error',
      from: { path: '^(app|core|db|server)/', pathNot: TESTS },
      to: { path: '^tests/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|\\.react-router|db/migrations)/' },
    // TypeScript 7 has no compiler API for dependency-cruiser yet: swc reads the sources (and
    // tells type-only imports apart); the `#core/*` aliases resolve by package.json "imports".
    // swc reads the TypeScript source itself, type-only imports included (marked `type-only`);
    // `tsPreCompilationDeps` would ask for the TypeScript compiler API as well.
    parser: 'swc',
    tsPreCompilationDeps: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
}
