import type { Kit } from './kit'

/** The installation itself (data-dir/, db/meta-keys.ts): one row per fact. */
export function metaTables(k: Kit) {
  /**
   * Facts about the installation itself, one row per key. `data_dir_id` pairs this database with its data dir
   * (the same id is in `<data>/data-dir-id`): a start with a database and a blob store that do not belong
   * together is refused (src/data-dir/pairing.ts).
   */
  const meta = k.table('meta', {
    key: k.text('key').primaryKey(),
    value: k.text('value').notNull(),
  })

  return { meta }
}
