import type { PasskeyRow } from '../../db/tables'
import type { PasskeyDto } from '../../routes/passkeys/model'

export function toPasskeyDto(row: PasskeyRow): PasskeyDto {
  return {
    id: row.id,
    name: row.name,
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
  }
}
