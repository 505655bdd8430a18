import { badRequest } from '../../errors'
import { checkText } from '../../lib/text'

/** The longest team name, in code points. */
export const TEAM_NAME_MAX = 100

/** A team's name, stored NFC; or the 400 that says why not. Names need not be unique: a team is known by its id. */
export function teamName(raw: string): string {
  const check = checkText(raw, { max: TEAM_NAME_MAX, multiline: false })
  if (!check.ok) throw badRequest(`name ${check.problem}`)
  const name = check.value.trim()
  if (name === '') throw badRequest('name must not be empty')
  return name
}
