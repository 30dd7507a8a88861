/** Title and description of a page; React hoists them into <head>. */
export function PageMeta({
  title,
  description,
  siteName,
}: {
  title: string
  description: string
  siteName?: string
}) {
  return (
    <>
      <title>{siteName ? `${title} | ${siteName}` : title}</title>
      <meta name="description" content={description} />
    </>
  )
}
