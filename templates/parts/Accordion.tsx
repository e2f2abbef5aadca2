import type { ReactNode } from 'react'

export interface AccordionItem { question: string; answer: ReactNode }

/**
 * Questions and answers (the FAQ of a service). The static HTML shows every answer under its
 * heading; the accordion island turns each heading into a button that shows or hides its answer,
 * as in the WAI-ARIA Authoring Practices accordion pattern.
 */
export function Accordion({ id, items }: { id: string; items: AccordionItem[] }) {
  return (
    <div className="accordion" data-island="accordion">
      {items.map((item, i) => (
        <div key={i} className="accordion__item">
          <h3 className="accordion__heading" id={`${id}-q${i + 1}`}>{item.question}</h3>
          <div className="accordion__panel" id={`${id}-a${i + 1}`}>{item.answer}</div>
        </div>
      ))}
    </div>
  )
}
