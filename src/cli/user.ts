import { type AuditAction, type AuditDetail, recordAudit } from '../core/audit/record'
import type { AppContext } from '../core/context'
import { formatSize, parseSize } from '../shared/sizes'
import { addUser, findUserByName, listUsers, removeUser, setPassword, setQuota } from '../core/accounts/users/users'
import { successionEntries } from '../core/teams/succession'
import { resetTwoFactor, twoFactorOn } from '../core/accounts/two-factor'
import { removeAllPasskeys } from '../core/accounts/passkeys'
import { allowOnly, stringFlag, type ParsedArgs } from './args'
import { readNewPassword } from './password-input'
import { CliFailure, commandHint, table, type CliIo } from './io'

export const USER_USAGE = `user add NAME [--password | --password-stdin] [--admin]
                                create a user; with a password they can also sign in to the dashboard;
                                an admin manages users (the first user is one)
  user passwd NAME [--password-stdin]
                                set or change a user's password (typed twice, or one line from stdin)
  user list                     users with their usage and limits
  user remove NAME [--delete-files]
                                remove a user and their tokens (and files, with --delete-files)
  user quota NAME [--max-storage SIZE|unlimited] [--max-files N|unlimited]
                                show or set plan limits, e.g. --max-storage 5GB --max-files 1000
  user 2fa reset NAME           turn off a user's two-factor sign-in and remove their passkeys (a lost
                                phone or key); they sign in with their password and may set them up again`

const audit = (ctx: AppContext, action: AuditAction, userId: string, detail: AuditDetail) =>
  recordAudit(ctx, { action, actor: { via: 'cli' }, userId, detail })

export async function userCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  if (args.positionals[1] === '2fa') return twoFactorCommand(ctx, args, io)
  const [, action, name, ...extra] = args.positionals
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  const needName = () => {
    if (!name) throw new CliFailure(`user ${action} needs a NAME`, 2)
    return name
  }
  switch (action) {
    case 'add': {
      allowOnly(args, 'user add', ['password', 'password-stdin', 'admin'])
      const wantsPassword = args.flags.password === true || args.flags['password-stdin'] === true
      // Asked before the user exists, so a mistyped password leaves nothing half made.
      const password = wantsPassword ? await readNewPassword(args.flags['password-stdin'] === true) : undefined
      const user = await addUser(ctx, { name: needName(), admin: args.flags.admin === true })
      await audit(ctx, 'user.added', user.id, { name: user.name, admin: user.isAdmin })
      if (password !== undefined) {
        await setPassword(ctx, { name: user.name, password })
        await audit(ctx, 'user.password_set', user.id, { name: user.name })
      }
      io.out(
        `created user ${user.name}${password !== undefined ? ' with a password' : ''}` +
          (user.isAdmin ? (args.flags.admin === true ? ', an admin' : ', an admin (the first user is one)') : ''),
      )
      io.err(`next: TOKEN=$(${commandHint(ctx.config.dataDir, `token issue ${user.name}`)})`)
      return
    }
    case 'passwd': {
      allowOnly(args, 'user passwd', ['password-stdin'])
      const user = await findUserByName(ctx, needName())
      await setPassword(ctx, { name: user.name, password: await readNewPassword(args.flags['password-stdin'] === true) })
      await audit(ctx, 'user.password_set', user.id, { name: user.name })
      io.out(`password of ${user.name} set; they can sign in at /app`)
      return
    }
    case 'list': {
      allowOnly(args, 'user list', [])
      const users = await listUsers(ctx)
      if (users.length === 0) return io.err(`no users yet; create one with: ${commandHint(ctx.config.dataDir, 'user add NAME')}`)
      io.out(
        table(
          ['NAME', 'FILES', 'STORAGE', 'MAX STORAGE', 'MAX FILES', 'CREATED', 'ROLE', '2FA'],
          users.map((user) => [
            user.name,
            String(user.usage.files),
            formatSize(user.usage.bytes),
            user.maxBytes === null ? 'unlimited' : formatSize(user.maxBytes),
            user.maxFiles === null ? 'unlimited' : String(user.maxFiles),
            new Date(user.createdAt).toISOString(),
            user.isAdmin ? 'admin' : 'user',
            user.totpEnabledAt === null ? 'off' : 'on',
          ]),
        ),
      )
      return
    }
    case 'remove': {
      allowOnly(args, 'user remove', ['delete-files'])
      const removed = await removeUser(ctx, { name: needName(), deleteFiles: args.flags['delete-files'] === true })
      await audit(ctx, 'user.removed', removed.id, { name: needName(), removedFiles: removed.removedFiles })
      for (const entry of successionEntries(removed.id, removed)) await audit(ctx, entry.action, entry.userId, entry.detail)
      io.out(`removed user ${name}${removed.removedFiles > 0 ? ` and ${removed.removedFiles} file(s)` : ''}`)
      for (const p of removed.promotedOwners) io.out(`${p.name} is now the owner of ${p.teamName}`)
      for (const team of removed.deletedTeams) io.out(`deleted team ${team.name} (no member left) and its ${team.removedFiles} file(s)`)
      return
    }
    case 'quota': {
      allowOnly(args, 'user quota', ['max-storage', 'max-files'])
      const maxBytes = limitFlag(stringFlag(args, 'max-storage'), '--max-storage', parseSize, 'a size such as 5GB or 500MB')
      const maxFiles = limitFlag(
        stringFlag(args, 'max-files'),
        '--max-files',
        (text) => (/^\d+$/.test(text) ? Number(text) : undefined),
        'a whole number',
      )
      const user =
        maxBytes === undefined && maxFiles === undefined
          ? await findUserByName(ctx, needName())
          : await setQuota(ctx, { name: needName(), maxBytes, maxFiles })
      if (maxBytes !== undefined || maxFiles !== undefined) {
        await audit(ctx, 'user.quota_set', user.id, { name: user.name, maxBytes: user.maxBytes, maxFiles: user.maxFiles })
      }
      io.out(
        `${user.name}: max storage ${user.maxBytes === null ? 'unlimited' : formatSize(user.maxBytes)}, max files ${user.maxFiles ?? 'unlimited'}`,
      )
      return
    }
    default:
      throw new CliFailure(
        action ? `unknown command "user ${action}"` : 'user needs a subcommand: add, passwd, list, remove, quota or 2fa',
        2,
      )
  }
}

function limitFlag(
  text: string | undefined,
  flag: string,
  parse: (text: string) => number | undefined,
  expected: string,
): number | null | undefined {
  if (text === undefined) return undefined
  if (text.trim().toLowerCase() === 'unlimited') return null
  const value = parse(text)
  if (value === undefined) throw new CliFailure(`invalid ${flag} ${JSON.stringify(text)}: must be ${expected} or "unlimited"`, 2)
  return value
}

/** `user 2fa reset NAME`: the way back in for a user who lost both their phone and their recovery codes. */
async function twoFactorCommand(ctx: AppContext, args: ParsedArgs, io: CliIo): Promise<void> {
  const [, , action, name, ...extra] = args.positionals
  if (action !== 'reset') throw new CliFailure(action ? `unknown command "user 2fa ${action}"` : 'user 2fa needs a subcommand: reset', 2)
  if (!name) throw new CliFailure('user 2fa reset needs a NAME', 2)
  if (extra.length > 0) throw new CliFailure(`unexpected argument ${JSON.stringify(extra[0])}`, 2)
  allowOnly(args, 'user 2fa reset', [])
  const user = await findUserByName(ctx, name)
  const hadCodes = twoFactorOn(user)
  await resetTwoFactor(ctx, user.id) // a setup they had started and not confirmed goes too
  const passkeysRemoved = await removeAllPasskeys(ctx, user.id)
  if (!hadCodes && passkeysRemoved === 0) return io.out(`${user.name} has no two-factor sign-in and no passkey; nothing to reset`)
  await audit(ctx, 'two_factor.reset', user.id, { name: user.name, passkeysRemoved })
  const removed = passkeysRemoved > 0 ? ` and ${passkeysRemoved} passkey(s) removed` : ''
  io.out(`two-factor sign-in of ${user.name} reset${removed}: they sign in with their password alone, and may set it up again`)
}
