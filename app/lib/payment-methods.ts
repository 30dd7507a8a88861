/**
 * Which methods a customer can pay with, as this shop is set up (ADR 038): a bank transfer
 * always (staff record it), a card (Stripe) and PayPal when their providers are configured. The
 * public texts name exactly these, as a key of `payWith` in the public locale files.
 */
export type PaymentMethods = { card: boolean; paypal: boolean }

export function payWithKey(methods: PaymentMethods): 'bank' | 'bankCard' | 'bankPaypal' | 'bankCardPaypal' {
  if (methods.card && methods.paypal) return 'bankCardPaypal'
  if (methods.card) return 'bankCard'
  if (methods.paypal) return 'bankPaypal'
  return 'bank'
}
