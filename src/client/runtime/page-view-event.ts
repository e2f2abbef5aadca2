/** The dataLayer payload of one page view (its `event` is added from the configuration). */
export interface PageView { pageType: 'PageView'; pageUrl: string; pageTitle: string; routeName: string }
