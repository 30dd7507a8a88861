/** Store guide categories, in the order of the guide's dropdown. Isomorphic. */
export const STORE_CATEGORIES = [
  'general_and_anime_goods',
  'official_anime_stores',
  'fashion_and_lifestyle',
  'household_and_misc',
  'beauty_and_cosmetics',
  'figures_and_collectibles',
] as const

export type StoreCategory = (typeof STORE_CATEGORIES)[number]

export function parseStoreCategory(value: string | null | undefined): StoreCategory | null {
  return STORE_CATEGORIES.find((category) => category === value) ?? null
}
