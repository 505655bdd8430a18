import type { LinkBody, LinkDto } from '../../../src/routes/links/model'
import { LINK_LIMITS } from '../../../src/shared/link-shapes'
import { CountedField } from './ui'
import { type MessageKey, t } from './i18n'

/** Who may open a link, as the form holds it: the lists as typed (one entry per line), the agreement's words. */
export type ReaderFields = { access: LinkDto['access']; allow: string; deny: string; agreement: string }

export const readerFieldsOf = (link?: LinkDto): ReaderFields => ({
  access: link?.access ?? 'open',
  allow: (link?.allow ?? []).join('\n'),
  deny: (link?.deny ?? []).join('\n'),
  agreement: link?.agreement ?? '',
})

/** The entries of a typed list: one per line (commas and spaces also part them). */
const entriesOf = (text: string) => text.split(/[\s,;]+/).filter((entry) => entry !== '')
const sameList = (a: string, b: string) => entriesOf(a).join('\n') === entriesOf(b).join('\n')

/**
 * What changed, for the link's PATCH (or everything set, for a new link). Back to "anyone with the link", the
 * lists are emptied with it: they are hidden then, and the server refuses lists on an open link.
 */
export function readerInputOf(fields: ReaderFields, start: ReaderFields): LinkBody {
  const input: LinkBody = {}
  if (fields.access !== start.access) input.access = fields.access
  const open = fields.access === 'open'
  const allow = open ? '' : fields.allow
  const deny = open ? '' : fields.deny
  if (!sameList(allow, start.allow)) input.allow = entriesOf(allow)
  if (!sameList(deny, start.deny)) input.deny = entriesOf(deny)
  if (fields.agreement.trim() !== start.agreement.trim()) input.agreement = fields.agreement.trim() === '' ? null : fields.agreement
  return input
}

const ACCESS_CHOICES: [LinkDto['access'], MessageKey][] = [
  ['open', 'readers.access.open'],
  ['email', 'readers.access.email'],
  ['verified-email', 'readers.access.verified'],
]

/** The link form's "who may open it" part: access, allow and deny lists, the agreement. */
export function LinkReadersFields(props: {
  id: (name: string) => string
  fields: ReaderFields
  set: (change: Partial<ReaderFields>) => void
}) {
  const { id, fields, set } = props
  return (
    <fieldset class="link-readers">
      <legend>{t('readers.legend')}</legend>
      <div class="field">
        <label for={id('access')}>{t('readers.label')}</label>
        <select
          id={id('access')}
          value={fields.access}
          aria-describedby={id('access-hint')}
          onChange={(event) => set({ access: event.currentTarget.value as LinkDto['access'] })}
        >
          {ACCESS_CHOICES.map(([value, words]) => (
            <option key={value} value={value}>
              {t(words)}
            </option>
          ))}
        </select>
        <span id={id('access-hint')} class="hint">
          {fields.access === 'open' ? t('readers.openHint') : t('readers.emailHint')}
        </span>
      </div>
      {fields.access !== 'open' && (
        <div class="link-form-grid">
          <div class="field">
            <label for={id('allow')}>{t('readers.allow')}</label>
            <textarea
              id={id('allow')}
              rows={3}
              value={fields.allow}
              aria-describedby={id('allow-hint')}
              onInput={(event) => set({ allow: event.currentTarget.value })}
            />
            <span id={id('allow-hint')} class="hint">
              {t('readers.allowHint', { max: LINK_LIMITS.listEntries })}
            </span>
          </div>
          <div class="field">
            <label for={id('deny')}>{t('readers.deny')}</label>
            <textarea
              id={id('deny')}
              rows={3}
              value={fields.deny}
              aria-describedby={id('deny-hint')}
              onInput={(event) => set({ deny: event.currentTarget.value })}
            />
            <span id={id('deny-hint')} class="hint">
              {t('readers.denyHint')}
            </span>
          </div>
        </div>
      )}
      <CountedField
        id={id('agreement')}
        label={t('readers.agreement')}
        value={fields.agreement}
        max={LINK_LIMITS.agreement}
        multiline
        onInput={(agreement) => set({ agreement })}
      />
    </fieldset>
  )
}
