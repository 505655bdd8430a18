/** 1.2 MB, 340 KB: binary units, written as the API's own messages write them. */
export { formatSize as formatBytes } from '../../../src/shared/sizes'

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
export const formatDate = (iso: string) => dateFormat.format(new Date(iso))
