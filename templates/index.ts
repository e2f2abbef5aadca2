/** Page templates by name: the route table names one for every page. */
import type { ComponentType } from 'react'
import type { Page } from '../src/page/index.ts'
import type { TemplateName } from '../src/types.ts'
import { Article } from './pages/Article.tsx'
import { BlogIndex } from './pages/BlogIndex.tsx'
import { Contact } from './pages/Contact.tsx'
import { Doctor } from './pages/Doctor.tsx'
import { Home } from './pages/Home.tsx'
import { NotFound } from './pages/NotFound.tsx'
import { Plain } from './pages/Plain.tsx'
import { Service } from './pages/Service.tsx'
import { Services } from './pages/Services.tsx'
import { ThankYou } from './pages/ThankYou.tsx'

export const templates: Record<TemplateName, ComponentType<{ page: Page }>> = {
  home: Home,
  services: Services,
  service: Service,
  doctor: Doctor,
  contact: Contact,
  'thank-you': ThankYou,
  'blog-index': BlogIndex,
  article: Article,
  page: Plain,
  'not-found': NotFound,
}
