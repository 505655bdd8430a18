import { expect } from 'bun:test'

/** The answer's data, once its status is `status`; fails with the body otherwise. */
export async function data(response: Response, status = 200) {
  const text = await response.text()
  expect(response.status, text).toBe(status)
  return JSON.parse(text).data
}

/** The status and the code of a refusal, as one string a failure reads well. */
export async function refusal(response: Response): Promise<string> {
  const text = await response.text()
  return `${response.status} ${text.startsWith('{') ? JSON.parse(text).code : text}`
}
