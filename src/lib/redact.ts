/**
 * `scheme://user:password@host` → `scheme://user:***@host`, wherever such a URL appears in a text (also in one
 * that is not a valid URL): database and S3 URLs carry passwords, and a message, an error or a log line must
 * never repeat them.
 */
const USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/?#:@"'`]*):([^\s/?#"'`]*)@/gi

export function redactPasswords(text: string): string {
  return text.replace(USER_INFO, (_, scheme: string, user: string) => `${scheme}${user}:***@`)
}
