/** The public address of a share link: <public-url>/s/<slug>. */
export function shareUrlOf(publicUrl: string, slug: string): string {
  return `${publicUrl}/s/${slug}`
}
