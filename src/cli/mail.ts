import type { AppContext } from '../core/context'
import { sendTestMail } from '../core/mail/send-test-mail'
import { allowOnly, type ParsedArgs } from './args'
import { CliFailure, type CliIo } from './io'

export const MAIL_USAGE = `mail test ADDRESS             send a test mail now through PDFSHARE_SMTP_URL and print what the server said`

/** `pdfshare mail test ADDRESS`: exit 0 when the SMTP server accepted it, 1 with its answer when it did not. */
export async function mailCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<boolean> {
  const [, action, to, ...extra] = args.positionals
  if (action !== 'test') throw new CliFailure(action ? `unknown command "mail ${action}"` : 'mail needs a subcommand: test', 2)
  if (!to || !/^[^\s@]+@[^\s@]+$/.test(to)) throw new CliFailure('mail test needs an ADDRESS, e.g. pdfshare mail test you@example.com', 2)
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  allowOnly(args, 'mail test', [])
  const answer = await sendTestMail(ctx, { to })
  if (answer.accepted) {
    io.out(`sent to ${to}; the server answered: ${answer.response}`)
    return true
  }
  io.err(`not sent to ${to}; the server answered: ${answer.response}`)
  return false
}
