import { requestText } from '../../core/requests/rules'
import { badRequest } from '../../errors'

/** The sender's name and note from the upload's form ("" when not given), checked by the request's text rules. */
export function senderTexts(fields: Map<string, string>): { name: string; note: string; email: string } {
  const text = (field: 'name' | 'note') => {
    const check = requestText(field, fields.get(field) ?? '')
    if (!check.ok) throw badRequest(check.problem)
    return check.value
  }
  return { name: text('name'), note: text('note'), email: fields.get('email') ?? '' }
}

/** A browser's form wants a page back; a script or a client of the API the JSON receipt. */
export const wantsPage = (request: Request): boolean => (request.headers.get('accept') ?? '').includes('text/html')
