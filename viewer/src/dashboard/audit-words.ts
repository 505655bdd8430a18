import type { AuditEntryDto } from '../../../src/routes/audit/model'
import type { AuditAction } from '../../../src/shared/audit-shapes'
import type { MessageKey } from './i18n'

/** The audit log in words, for the Activity page and the Account page's changes by an admin. */

/** Each action in words. */
export const ACTION_TEXT: Record<AuditAction, MessageKey> = {
  'sign_in.succeeded': 'audit.sign_in.succeeded',
  'sign_in.failed': 'audit.sign_in.failed',
  'token.issued': 'audit.token.issued',
  'token.revoked': 'audit.token.revoked',
  'user.added': 'audit.user.added',
  'user.removed': 'audit.user.removed',
  'user.password_set': 'audit.user.password_set',
  'user.quota_set': 'audit.user.quota_set',
  'user.disabled': 'audit.user.disabled',
  'user.enabled': 'audit.user.enabled',
  'user.admin_set': 'audit.user.admin_set',
  'user.sso_link_set': 'audit.user.sso_link_set',
  'user.email_set': 'audit.user.email_set',
  'invitation.created': 'audit.invitation.created',
  'invitation.revoked': 'audit.invitation.revoked',
  'mail.test_sent': 'audit.mail.test_sent',
  'branding.changed': 'audit.branding.changed',
  'branding.logo_set': 'audit.branding.logo_set',
  'branding.logo_removed': 'audit.branding.logo_removed',
  'two_factor.enabled': 'audit.two_factor.enabled',
  'two_factor.disabled': 'audit.two_factor.disabled',
  'two_factor.recovery_codes_renewed': 'audit.two_factor.recovery_codes_renewed',
  'two_factor.reset': 'audit.two_factor.reset',
  'passkey.added': 'audit.passkey.added',
  'passkey.removed': 'audit.passkey.removed',
  'file.deleted': 'audit.file.deleted',
  'file.moved': 'audit.file.moved',
  'upload.infected': 'audit.upload.infected',
  'room.created': 'audit.room.created',
  'room.changed': 'audit.room.changed',
  'room.deleted': 'audit.room.deleted',
  'link.created': 'audit.link.created',
  'link.changed': 'audit.link.changed',
  'link.deleted': 'audit.link.deleted',
  'request.created': 'audit.request.created',
  'request.changed': 'audit.request.changed',
  'request.deleted': 'audit.request.deleted',
  'reader.erased': 'audit.reader.erased',
  'notification_channel.created': 'audit.notification_channel.created',
  'notification_channel.deleted': 'audit.notification_channel.deleted',
  'team.created': 'audit.team.created',
  'team.changed': 'audit.team.changed',
  'team.deleted': 'audit.team.deleted',
  'team.member_added': 'audit.team.member_added',
  'team.member_changed': 'audit.team.member_changed',
  'team.member_removed': 'audit.team.member_removed',
  'team.quota_set': 'audit.team.quota_set',
  'team.owner_promoted': 'audit.team.owner_promoted',
  'webhook.created': 'audit.webhook.created',
  'webhook.deleted': 'audit.webhook.deleted',
}

/** An entry's facts in one line: "label: ci · scopes: files:read". */
export function facts(detail: AuditEntryDto['detail']): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ')
}
