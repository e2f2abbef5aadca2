/**
 * The id of a card's title, made from the path of the page the card links to: the card (an
 * <article>) is named by its title through aria-labelledby, so that each of a list of cards has a
 * name of its own for assistive technology. Example: '/services/rhinoplasty/' -> 'title-services-rhinoplasty'.
 */
export const cardTitleId = (path: string) => `title${path.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}`
