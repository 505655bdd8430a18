import type { LinkBody, LinkDto } from '../../../src/routes/links/model'
import { LINK_LIMITS } from '../../../src/shared/link-shapes'
import { copyWithNotice } from './ui'
import { t } from './i18n'

/** The sites that may frame a link, as the form holds them: one origin per line. */
export const embedFieldOf = (link?: LinkDto): string => (link?.embedOrigins ?? []).join('\n')

const originsOf = (text: string) => text.split(/[\s,;]+/).filter((entry) => entry !== '')

/** The change of embedOrigins for the link's PATCH (everything typed, for a new link); the server checks the origins. */
export function embedInputOf(typed: string, start: string): LinkBody {
  return originsOf(typed).join('\n') === originsOf(start).join('\n') ? {} : { embedOrigins: originsOf(typed) }
}

/** The link form's field for the sites that may show the link's page in a frame of theirs. */
export function EmbedField(props: { id: (name: string) => string; value: string; onInput: (value: string) => void }) {
  const { id } = props
  return (
    <div class="field">
      <label for={id('embed')}>{t('embed.sites')}</label>
      <textarea
        id={id('embed')}
        rows={2}
        value={props.value}
        placeholder="https://intranet.example.com"
        aria-describedby={id('embed-hint')}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <span id={id('embed-hint')} class="hint">
        {t('embed.sitesHint', { max: LINK_LIMITS.embedOrigins })}
      </span>
    </div>
  )
}

/** The `<iframe>` a site pastes to show the link; its Referer tells the server which site shows it (docs/share-page.md). */
export const iframeSnippet = (link: LinkDto, title: string) =>
  `<iframe src="${link.url}" title="${title.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)}" width="100%" height="720" style="border: 0" referrerpolicy="origin" loading="lazy"></iframe>`

/** Plain http to a host other than localhost: browsers keep no cookie inside another site's frame there. */
const cookiesNeedHttps = (url: string) => {
  const { protocol, hostname } = new URL(url)
  return protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname)
}

/** A link's embed code, to copy, with what it takes for other sites to show it. */
export function EmbedCode(props: { link: LinkDto; name: string }) {
  const { link } = props
  const snippet = iframeSnippet(link, props.name)
  const id = `link-embed-code-${link.id}`
  return (
    <div class="embed-code">
      <label for={id}>{t('embed.code')}</label>
      <textarea id={id} class="snippet" rows={3} readOnly value={snippet} onFocus={(event) => event.currentTarget.select()} />
      <div class="row">
        <button type="button" onClick={() => copyWithNotice(snippet, 'embed')}>
          {t('embed.copy')}
        </button>
      </div>
      {link.embedOrigins.length === 0 ? (
        <p class="hint">{t('embed.none')}</p>
      ) : (
        <p class="hint">{t('embed.only', { sites: link.embedOrigins.join(', ') })}</p>
      )}
      {link.embedOrigins.length > 0 && cookiesNeedHttps(link.url) && <p class="hint warning">{t('embed.http')}</p>}
    </div>
  )
}
