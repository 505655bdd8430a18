/** What the analytics tell apart: the kind of device a visit came from. */
export const DEVICE_CLASSES = ['phone', 'tablet', 'desktop'] as const
export type DeviceClass = (typeof DEVICE_CLASSES)[number]

// A small rule set over the User-Agent, checked in this order (docs/share-page.md, "Reading analytics", lists it):
// tablets say iPad, Tablet, Kindle, Silk or PlayBook, or are Android without "Mobile" (Android phones add it);
// phones say Mobi (Mobile, Mobi), iPhone, iPod, Android, Windows Phone, BlackBerry or Opera Mini;
// everything else is a desktop. An iPad in desktop mode says Macintosh and is counted as a desktop.
const TABLET = /iPad|Tablet|Kindle|Silk|PlayBook/i
const ANDROID = /Android/i
const MOBILE = /Mobile/i
const PHONE = /Mobi|iPhone|iPod|Android|Windows Phone|BlackBerry|Opera Mini/i

/** phone, tablet or desktop, from a User-Agent (desktop when there is none). */
export function deviceClassOf(userAgent: string | null): DeviceClass {
  if (!userAgent) return 'desktop'
  if (TABLET.test(userAgent) || (ANDROID.test(userAgent) && !MOBILE.test(userAgent))) return 'tablet'
  return PHONE.test(userAgent) ? 'phone' : 'desktop'
}
