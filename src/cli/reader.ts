import type { AppContext } from '../core/context'
import { findUserByName } from '../core/accounts/users/users'
import { eraseReader } from '../core/readers/erase-reader'
import { DomainError } from '../errors'
import { allowOnly, type ParsedArgs, stringFlag } from './args'
import { CliFailure, type CliIo } from './io'

export const READER_USAGE = `reader erase ADDRESS [--user NAME]  erase a reader's address from every visit, acceptance, notification, code mail and watermarked copy (of one user's files with --user)`

/** `pdfshare reader erase ADDRESS`: a reader asked the operator to be forgotten. */
export async function readerCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  const [, action, address, ...extra] = args.positionals
  if (action !== 'erase') throw new CliFailure(action ? `unknown command "reader ${action}"` : 'reader needs a subcommand: erase', 2)
  if (!address) throw new CliFailure('reader erase needs an ADDRESS, e.g. pdfshare reader erase ada@acme.com', 2)
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  allowOnly(args, 'reader erase', ['user'])
  const userName = stringFlag(args, 'user')
  try {
    const user = userName === undefined ? null : await findUserByName(ctx, userName)
    const erased = await eraseReader(ctx, { ownerId: user?.id ?? null, address })
    const whose = user ? `${user.name}'s files` : 'every file'
    io.out(
      `erased ${address.trim().toLowerCase()} from ${erased.visits} visits and ${erased.acceptances} acceptances of ${whose}, ` +
        `${erased.events} reader events, ${erased.deliveries} notification messages, ${erased.mails} code mails ` +
        `and ${erased.cachedFiles} watermarked copies in this server's page cache`,
    )
  } catch (error) {
    if (error instanceof DomainError) throw new CliFailure(error.message, error.code === 'invalid_request' ? 2 : 1)
    throw error
  }
}
