import { z } from 'zod'
import { paymentProvidersFromEnv } from '#core/payments/provider.ts'
import { s3ConfigFromEnv } from '#core/uploads/s3-file-store.ts'
import { whatsappConfigFromEnv } from '#core/whatsapp/config.ts'

const booleanish = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', ''])
  .transform((value) => value === '1' || value === 'true' || value === 'yes')

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || null)

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65_535).default(3000),
    /** Empty: listen on every interface (IPv6 and IPv4), as Node does by default. */
    HOST: z.string().default(''),
    /** Public address of the site: canonical links, e-mails. */
    APP_URL: z.url().optional(),
    /** External PostgreSQL ≥ 15. Empty: start the embedded PostgreSQL under DATA_DIR. */
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: 'DATABASE_URL must start with postgres:// or postgresql://' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Express "trust proxy": set it to the number of proxies in front of the app. */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /** Cache rendered anonymous pages in memory (production only). */
    PAGE_CACHE: booleanish.default(true),
    /**
     * Says DATA_DIR/uploads is one directory shared by every process (a network file system), so
     * an external database without S3 does not warn that photos stay on one process's disk.
     */
    UPLOADS_SHARED: booleanish.default(false),
    PAGE_CACHE_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(20),
    /** Unset: the drain follows the health check (shutdownDrainSeconds below). */
    SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(60).optional(),
    /**
     * Bearer token of GET /metrics (Prometheus, server/metrics.ts), at least 16 characters. Unset:
     * no /metrics and no request counting.
     */
    METRICS_TOKEN: z
      .string()
      .regex(/^\S{16,}$/, { error: 'METRICS_TOKEN must be at least 16 characters, without spaces' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * Tests only: `host:port` of the local shop stand-in (tests/support/shop-stand-in/) every
     * link preview reads instead of the shop, after the same checks of the link. Warned at start.
     */
    LINK_PREVIEW_STAND_IN: z
      .string()
      .regex(/^[a-z0-9.-]{1,253}:\d{1,5}$/i, { error: 'LINK_PREVIEW_STAND_IN must be host:port' })
      .optional()
      .or(z.literal('').transform(() => undefined))
      .transform((value) => {
        if (!value) return null
        const at = value.lastIndexOf(':')
        return { host: value.slice(0, at), port: Number(value.slice(at + 1)) }
      }),
    /** Key of the external form service; when set, contact messages are also forwarded there. */
    CONTACT_FORM_ACCESS_KEY: z
      .string()
      .trim()
      .max(200)
      .optional()
      .transform((value) => value || null),
    CONTACT_FORM_ENDPOINT: z.url().default('https://api.web3forms.com/submit'),
    /** How often each process's idle job workers look for new jobs (pg-boss's minimum is 0.5). */
    JOBS_POLL_INTERVAL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
    /** Signs sessions and tokens; at least 32 characters. Generated under DATA_DIR when unset outside production. */
    AUTH_SECRET: z.string().min(32).optional(),
    /** Comma-separated e-mails that become admins when they sign up. */
    ADMIN_EMAILS: z
      .string()
      .default('')
      .transform((value) =>
        value
          .split(',')
          .map((email) => email.trim().toLowerCase())
          .filter(Boolean),
      ),
    GOOGLE_CLIENT_ID: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null),
    GOOGLE_CLIENT_SECRET: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null),
    /** OpenID Connect issuer for Google sign-in: https, or http on loopback (the tests' local provider). */
    GOOGLE_ISSUER: z
      .url()
      .default('https://accounts.google.com')
      .refine(
        (value) => {
          // z.url() has already reported an unparseable value.
          if (!URL.canParse(value)) return true
          const url = new URL(value)
          const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)
          return (
            (url.protocol === 'https:' || (url.protocol === 'http:' && loopback)) && !url.search && !url.hash
          )
        },
        { error: 'GOOGLE_ISSUER must be an https:// address (http:// only on localhost), without query' },
      ),
    /** SMTP server for e-mail; empty keeps mail in the development outbox (/dev/outbox). */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: 'SMTP_URL must start with smtp:// or smtps://' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    MAIL_FROM: z.string().default('Storefront <no-reply@localhost>'),
    /** SMS codes go through Twilio when these three are set; otherwise into the development outbox. */
    TWILIO_ACCOUNT_SID: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null),
    TWILIO_AUTH_TOKEN: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null),
    TWILIO_FROM: z
      .string()
      .trim()
      .optional()
      .transform((value) => value || null),
    TWILIO_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.twilio.com'),
    /** Multiplies the auth rate limits; 1 outside tests. */
    AUTH_RATE_LIMIT_FACTOR: z.coerce.number().int().min(1).max(1000).default(1),
    /** Third-party widgets (Elfsight-style ids); each shows only after the visitor consents. */
    REVIEWS_WIDGET_ID: z
      .string()
      .trim()
      .regex(/^[\w-]{0,80}$/)
      .optional()
      .transform((value) => value || null),
    INSTAGRAM_WIDGET_ID: z
      .string()
      .trim()
      .regex(/^[\w-]{0,80}$/)
      .optional()
      .transform((value) => value || null),
    WIDGET_SCRIPT_URL: z
      .url({ protocol: /^https?$/ })
      .default('https://static.elfsight.com/platform/platform.js'),
    /**
     * Payment providers (core/payments/provider.ts `paymentProvidersFromEnv` checks them
     * together: a provider configured by halves stops the start). None: bank transfers only.
     */
    PAYPAL_CLIENT_ID: optionalText,
    PAYPAL_CLIENT_SECRET: optionalText,
    PAYPAL_WEBHOOK_ID: optionalText,
    PAYPAL_ENV: optionalText,
    PAYPAL_API_URL: optionalText,
    STRIPE_SECRET_KEY: optionalText,
    STRIPE_WEBHOOK_SECRET: optionalText,
    STRIPE_API_URL: optionalText,
    PAYMENT_PROVIDER_TIMEOUT_SECONDS: optionalText,
    /**
     * WhatsApp Business Cloud API (core/whatsapp/config.ts checks them together: all four or
     * none; none hides the option). WHATSAPP_API_URL defaults to https://graph.facebook.com/v23.0.
     */
    WHATSAPP_PHONE_NUMBER_ID: optionalText,
    WHATSAPP_ACCESS_TOKEN: optionalText,
    WHATSAPP_APP_SECRET: optionalText,
    WHATSAPP_VERIFY_TOKEN: optionalText,
    WHATSAPP_API_URL: optionalText,
    // dLocal, Latin-American local methods (docs/decisions/051).
    DLOCAL_LOGIN: optionalText,
    DLOCAL_TRANS_KEY: optionalText,
    DLOCAL_SECRET_KEY: optionalText,
    DLOCAL_ENV: optionalText,
    DLOCAL_API_URL: optionalText,
  })
  .refine((env) => env.NODE_ENV !== 'production' || env.AUTH_SECRET || !env.DATABASE_URL, {
    error: 'AUTH_SECRET is required in production with an external database',
    path: ['AUTH_SECRET'],
  })
  .transform((env) => ({
    ...env,
    APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
    isProduction: env.NODE_ENV === 'production',
  }))

export type Env = z.output<typeof EnvSchema>

/**
 * The drain when SHUTDOWN_DRAIN_SECONDS is unset and something checks /readyz: HAProxy's defaults
 * (`inter 2s`, `fall 3`) mark a server down at most 3 × 2 = 6 s after its first 503 (the first
 * check after the signal comes within 2 s, and it takes that check and two more); 8 s leaves one
 * more check interval for a check in flight or a slow answer. A balancer that checks every second
 * needs 3 s. nginx (passive checks) never reads /readyz: it sees a refused connection after the
 * port closes and tries the next server.
 */
export const DEFAULT_SHUTDOWN_DRAIN_SECONDS = 8
/** The drain when nothing has checked /readyz lately (a terminal's Ctrl-C, a test, nginx's passive checks). */
export const UNWATCHED_SHUTDOWN_DRAIN_SECONDS = 1
/** How recent a /readyz check must be for the process to count as watched by a balancer. */
export const READINESS_WATCH_SECONDS = 60

/**
 * How long a shutdown keeps serving after /readyz turned 503, before the port closes: the
 * configured SHUTDOWN_DRAIN_SECONDS when set; else 8 s when /readyz was checked in the last minute
 * (a balancer is watching: let it see the 503 enough times to mark this process down), and 1 s
 * when it was not (nobody is there to notice; connections already waiting are still answered).
 */
export function shutdownDrainSeconds({
  configured,
  lastReadinessCheckMs,
  nowMs,
}: {
  configured: number | undefined
  /** performance.now() of the last /readyz request, or null when none came. */
  lastReadinessCheckMs: number | null
  nowMs: number
}): number {
  if (configured !== undefined) return configured
  const watched =
    lastReadinessCheckMs !== null && nowMs - lastReadinessCheckMs <= READINESS_WATCH_SECONDS * 1000
  return watched ? DEFAULT_SHUTDOWN_DRAIN_SECONDS : UNWATCHED_SHUTDOWN_DRAIN_SECONDS
}

/** Parses the environment once at boot; a bad value stops the start with a readable list. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source)
  const lines = result.success
    ? []
    : result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`)
  // The payment variables, and the S3 storage ones, are checked together, with the rules their
  // adapters need.
  for (const check of [
    () => paymentProvidersFromEnv(source),
    () => s3ConfigFromEnv(source),
    () => whatsappConfigFromEnv(source),
  ]) {
    try {
      check()
    } catch (error) {
      lines.push(...(error as Error).message.split('\n').slice(1))
    }
  }
  if (result.success && lines.length === 0) return result.data
  throw new Error(`Invalid environment:\n${lines.join('\n')}`)
}
