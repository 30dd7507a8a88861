import { index, type RouteConfig, route } from '@react-router/dev/routes'

// Every page of the site. A file not listed here is not a route.
export default [
  index('routes/home.tsx'),
  route('services', 'routes/services.tsx'),
  route('calculator', 'routes/calculator.tsx'),
  route('store-guide', 'routes/store-guide.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('consent', 'routes/consent.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig
