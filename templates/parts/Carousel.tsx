import type { ReactNode } from 'react'
import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/**
 * A row of slides following the WAI-ARIA carousel pattern. Without JavaScript it is a
 * horizontally scrollable row; the carousel island adds the rotation, previous and next buttons
 * (rendered here, hidden until it runs) and the automatic rotation.
 */
export function Carousel({ page, id, label, slides }: { page: Page; id: string; label: string; slides: Array<{ key: string; content: ReactNode }> }) {
  const { t } = page
  return (
    <section className="carousel" id={id} aria-roledescription={t('carousel.name')} aria-label={label} data-island="carousel"
      data-label-stop={t('carousel.stop')} data-label-start={t('carousel.start')}>
      <div className="carousel__controls" hidden>
        <button className="carousel__rotation" type="button" aria-controls={`${id}-slides`}>
          <Icon name="pause" className="icon icon--pause" /><Icon name="play" className="icon icon--play" />
          <span className="carousel__rotation-label">{t('carousel.stop')}</span>
        </button>
        <button className="carousel__prev" type="button" aria-controls={`${id}-slides`}>
          <Icon name="chevronLeft" /><span className="visually-hidden">{t('carousel.previous')}</span>
        </button>
        <button className="carousel__next" type="button" aria-controls={`${id}-slides`}>
          <Icon name="chevronRight" /><span className="visually-hidden">{t('carousel.next')}</span>
        </button>
      </div>
      <div className="carousel__viewport">
        <div className="carousel__track" id={`${id}-slides`}>
          {slides.map((slide, i) => (
            <div key={slide.key} className="carousel__slide" role="group" aria-roledescription={t('carousel.slide')}
              aria-label={t('carousel.position', { n: i + 1, total: slides.length })}>
              {slide.content}
            </div>
          ))}
        </div>
      </div>
    </section>
  )
}
