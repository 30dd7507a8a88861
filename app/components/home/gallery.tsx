import { useTranslation } from 'react-i18next'

const IMAGES = ['packing', 'shop', 'fuji', 'plane', 'sakura', 'torii'] as const

/** Our own illustrations (vector, sized, lazy): the section stands complete without Instagram. */
export function Gallery() {
  const { t } = useTranslation()
  return (
    <ul className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-3">
      {IMAGES.map((image) => (
        <li key={image}>
          <img
            src={`/images/gallery/${image}.svg`}
            alt={t(`home.gallery.${image}`)}
            width={320}
            height={240}
            loading="lazy"
            decoding="async"
            className="h-auto w-full rounded-lg"
          />
        </li>
      ))}
    </ul>
  )
}
