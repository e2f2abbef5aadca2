/**
 * Decap CMS with only what the site's configuration uses: decap-cms-app registers every backend,
 * widget and interface language (5.5 MB of the editor's 7.3 MB), most of which no site uses.
 * The widgets are those src/admin/fields.ts produces (a list's item is an object); the backends,
 * site.yaml's two, the local one of `clinic-build dev` and the tests' in-memory one.
 */
import { DecapCmsCore as CMS } from 'decap-cms-core'
import { GitHubBackend } from 'decap-cms-backend-github'
import { GitGatewayBackend } from 'decap-cms-backend-git-gateway'
import { ProxyBackend } from 'decap-cms-backend-proxy'
import { TestBackend } from 'decap-cms-backend-test'
import boolean from 'decap-cms-widget-boolean'
import datetime from 'decap-cms-widget-datetime'
import image from 'decap-cms-widget-image'
import list from 'decap-cms-widget-list'
import markdown from 'decap-cms-widget-markdown'
import number from 'decap-cms-widget-number'
import object from 'decap-cms-widget-object'
import select from 'decap-cms-widget-select'
import string from 'decap-cms-widget-string'
import text from 'decap-cms-widget-text'
import imageComponent from 'decap-cms-editor-component-image'
import { en } from 'decap-cms-locales'

CMS.registerBackend('github', GitHubBackend)
CMS.registerBackend('git-gateway', GitGatewayBackend)
CMS.registerBackend('proxy', ProxyBackend)
CMS.registerBackend('test-repo', TestBackend)
for (const widget of [boolean, datetime, image, list, markdown, number, object, select, string, text]) CMS.registerWidget(widget.Widget())
CMS.registerEditorComponent(imageComponent)
CMS.registerLocale('en', en)

export default CMS
