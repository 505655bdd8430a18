/**
 * A page image or a download asked again while the renderers answer 503 (all busy: the test machine is shared),
 * as the viewer asks again after its Retry-After. At most `attempts` times (a minute), the last answer returned as
 * it is: a renderer started on a loaded machine may take that long.
 */
export async function untilDrawn(fetch: () => Promise<Response>, attempts = 240): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch()
    if (response.status !== 503 || attempt === attempts) return response
    await response.arrayBuffer()
    await Bun.sleep(250)
  }
}
