/** The Authorization header for an API token, for requests that do not go through `server.call` (fetch, app.handle). */
export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` }
}
