import type { AppContext } from '../core/context'
import { linkState } from '../core/links/link-state'
import { shareUrlOf } from '../core/links/share-url'
import { listLinks } from '../core/links/list-links'
import { setLinkDisabled } from '../core/links/update-link'
import { allowOnly, type ParsedArgs } from './args'
import { DomainError } from '../errors'
import { CliFailure, table, type CliIo } from './io'

export const LINK_USAGE = `link list FILE_ID              a file's share links (id, state, views, label, url)
  link disable LINK_ID          turn a share link off (readers get "This link has been turned off")
  link enable LINK_ID           turn it on again`

const OPERATOR = { operator: true } as const

/** The operator's share-link commands: any user's links, by id; an unknown id fails with exit code 1. */
export async function linkCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  const [, action, subject, ...extra] = args.positionals
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  switch (action) {
    case 'list': {
      allowOnly(args, 'link list', [])
      if (!subject) throw new CliFailure('link list needs a FILE_ID', 2)
      const rows = await listLinks(ctx, { asker: OPERATOR, fileId: subject }).catch(unknownId(`no file with id ${JSON.stringify(subject)}`))
      const now = ctx.now()
      io.out(
        table(
          ['ID', 'STATE', 'VIEWS', 'LABEL', 'URL'],
          rows.map((link) => [
            link.id,
            linkState(link, now),
            link.maxViews === null ? String(link.views) : `${link.views}/${link.maxViews}`,
            link.label || (link.isDefault ? '(default)' : '-'),
            shareUrlOf(ctx.config.publicUrl, link.slug),
          ]),
        ),
      )
      return
    }
    case 'disable':
    case 'enable': {
      allowOnly(args, `link ${action}`, [])
      if (!subject) throw new CliFailure(`link ${action} needs a LINK_ID (see link list)`, 2)
      const link = await setLinkDisabled(ctx, { asker: OPERATOR, linkId: subject, disabled: action === 'disable' }).catch(
        unknownId(`no link with id ${JSON.stringify(subject)} (see link list FILE_ID)`),
      )
      io.out(`${action}d link ${link.id} (now ${linkState(link, ctx.now())})`)
      return
    }
    default:
      throw new CliFailure(action ? `unknown command "link ${action}"` : 'link needs a subcommand: list, disable or enable', 2)
  }
}

/** A service's 404 said with the id the operator typed. */
const unknownId =
  (message: string) =>
  (error: unknown): never => {
    throw error instanceof DomainError && error.code === 'not_found' ? new CliFailure(message, 1) : error
  }
