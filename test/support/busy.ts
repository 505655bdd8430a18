/**
 * A page image or a download asked again while the renderers answer 503 (all busy: the test machine is shared),
 * as the viewer asks again after its Retry-After; and a link card (`preview.png`) asked again while it is the
 * placeholder of a card still being drawn (`x-preview: pending`), as an unfurler asks again later. At most
 * `attempts` times (a minute), the last answer returned as it is: a renderer started on a loaded machine may
 * take that long.
 */
export async function untilDrawn(fetch: () => Promise<Response>, attempts = 240): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch()
    const notYet = response.status === 503 || response.headers.get('x-preview') === 'pending'
    if (!notYet || attempt === attempts) return response
    await response.arrayBuffer()
    await Bun.sleep(250)
  }
}
