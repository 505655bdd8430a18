import { type LinkInput, toLinkInput } from '../../core/links/link-input'
import { bodyChecker } from '../../http/check-body'
import { LinkJson } from './model'

const checkJson = bodyChecker(LinkJson)

/** A JSON body of POST or PATCH, checked against LinkJson, in its stored form. */
export function linkFromJson(body: unknown): LinkInput {
  return toLinkInput(checkJson(body))
}
