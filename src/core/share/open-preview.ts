import type { SharedLink } from '../links/find-shared-link'
import type { Preview, PreviewService } from '../previews/preview-service'
import { hasGate } from '../links/readers'
import type { GoneAccess, LinkAccess } from './link-access'

/**
 * What `/s/:slug/preview.png` answers: the link is missing or gone; it has a gate (a password, an address to give, an agreement), so the neutral card,
 * the same for every link, whoever asks (`locked`); or its card (`card`), which may be the placeholder for now
 * (`pending`) when the render would outlast the time the request may wait.
 */
export type PreviewDecision = { kind: 'missing' } | GoneAccess | { kind: 'locked' } | { kind: 'card'; shared: SharedLink; preview: Preview }

/** `access`: the link as anyone sees it, without a reader's cookies: its card is the same for everyone. */
export type OpenPreview = (input: { access: LinkAccess }) => Promise<PreviewDecision>

export function previewOpener(previews: PreviewService, waitMs: number): OpenPreview {
  return async ({ access }) => {
    if (access.kind !== 'open') return access
    if (hasGate(access.shared.link)) return { kind: 'locked' }
    return { kind: 'card', shared: access.shared, preview: await previews.previewOf(access.shared.file, { waitMs }) }
  }
}
