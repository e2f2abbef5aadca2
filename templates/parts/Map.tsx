import type { Page } from '../../src/page/index.ts'
import { Icon } from './Icon.tsx'

/**
 * The clinic's location. The third-party map frame loads only when the visitor presses
 * "show map" (the map island); until then a drawn preview stands in, and a link opens the map
 * in a new tab with or without JavaScript.
 */
export function Map({ page }: { page: Page }) {
  const { t, site } = page
  return (
    <figure className="map" data-island="map" data-embed={site.map.embedUrl} data-title={t('map.title')}>
      <div className="map__frame">
        <svg className="map__preview" viewBox="0 0 320 200" width="320" height="200" aria-hidden="true" focusable="false">
          <rect width="320" height="200" fill="#ece6dc" />
          <path d="M-10 150 C80 130 150 120 330 70" stroke="#fbf8f3" strokeWidth="14" fill="none" />
          <path d="M70 -10 L120 210 M210 -10 L235 210 M-10 60 L330 40" stroke="#fbf8f3" strokeWidth="8" fill="none" />
          <path d="M250 120 h50 v60 h-50z M20 20 h60 v30 h-60z M140 20 h50 v35 h-50z" fill="#dfe7dc" />
          <path d="M160 62c-11 0-19 8-19 19 0 14 19 33 19 33s19-19 19-33c0-11-8-19-19-19z" fill="#6b4434" />
          <circle cx="160" cy="81" r="6.5" fill="#fbf8f3" />
        </svg>
        <button className="button button--small map__show" type="button" hidden>
          <Icon name="mapPin" />{t('map.show')}
        </button>
      </div>
      <figcaption className="map__caption">
        <a href={site.map.linkUrl} rel="noopener" target="_blank">
          {t('map.open')}<span className="visually-hidden"> {t('nav.newTab')}</span>
        </a>
      </figcaption>
    </figure>
  )
}
