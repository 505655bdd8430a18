import { passwordProblem } from '../core/accounts/password-rule'
import { CliFailure } from './io'

/**
 * A new password for `user add --password` and `user passwd`: the first line of stdin with --password-stdin
 * (for scripts: `echo "$PW" | pdfshare user passwd NAME --password-stdin`), otherwise typed twice on the
 * terminal without echo. Checked against the password rules before anything is stored.
 */
export async function readNewPassword(fromStdin: boolean): Promise<string> {
  let password: string
  if (fromStdin) {
    password = (await Bun.stdin.text()).split(/\r?\n/)[0] ?? ''
  } else {
    if (!process.stdin.isTTY) throw new CliFailure('no terminal to type a password on; pipe it in with --password-stdin', 2)
    password = await readHidden('New password: ')
    const again = await readHidden('Repeat it: ')
    if (again !== password) throw new CliFailure('the two passwords differ; nothing was changed', 1)
  }
  const problem = passwordProblem(password)
  if (problem) throw new CliFailure(`${problem}; nothing was changed`, 1)
  return password
}

/** One line from the terminal with echo off (raw mode): Enter ends it, Backspace works, Ctrl-C gives up. */
function readHidden(prompt: string): Promise<string> {
  process.stderr.write(prompt)
  const stdin = process.stdin
  stdin.setRawMode(true)
  stdin.resume()
  return new Promise((resolve, reject) => {
    let typed = ''
    const finish = (outcome: () => void) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off('data', onData)
      process.stderr.write('\n')
      outcome()
    }
    const onData = (chunk: Buffer) => {
      const chars = [...chunk.toString('utf8')]
      for (const [index, char] of chars.entries()) {
        if (char === '\r' || char === '\n') {
          // Whatever came after Enter (a pasted second line) belongs to the next question.
          const rest = chars
            .slice(index + 1)
            .join('')
            .replace(/^\n/, '')
          finish(() => resolve(typed))
          if (rest) stdin.unshift(Buffer.from(rest))
          return
        }
        if (char === '\u0003') return finish(() => reject(new CliFailure('cancelled; nothing was changed', 1)))
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('')
        else if (char >= ' ') typed += char
      }
    }
    stdin.on('data', onData)
  })
}
