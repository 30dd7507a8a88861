/**
 * The business's time zone: Osaka. Japan has no daylight saving time. A pure module, so browser
 * code and the job queue (which loads pg-boss) can share it.
 */
export const BUSINESS_TIME_ZONE = 'Asia/Tokyo'
