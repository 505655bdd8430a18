import type { LinkRow } from '../../db/tables'

/**
 * What a reader gets from a link right now. `active`: the document (after its password, if it has one);
 * every other state is the 410 page, and it is named in the owner's API so the dashboard can say why.
 * A link that is both disabled and expired is `disabled`: the owner's own switch is the first reason.
 */
export type LinkState = 'active' | 'disabled' | 'expired' | 'used_up'

export function linkState(link: Pick<LinkRow, 'disabled' | 'expiresAt' | 'maxViews' | 'views'>, now: number): LinkState {
  if (link.disabled) return 'disabled'
  if (link.expiresAt !== null && link.expiresAt <= now) return 'expired'
  if (link.maxViews !== null && link.views >= link.maxViews) return 'used_up'
  return 'active'
}
