/** Third-party widgets configured for the site; each loads only after consent. */
export type ThirdPartyConfig = {
  reviewsWidgetId: string | null
  instagramWidgetId: string | null
  scriptUrl: string
}

export function hasThirdParty(config: ThirdPartyConfig): boolean {
  return config.reviewsWidgetId !== null || config.instagramWidgetId !== null
}
