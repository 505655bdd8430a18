import type { AuditEntryDto } from '../../../src/routes/audit/model'
import type { AuditAction } from '../../../src/shared/audit-shapes'

/** The audit log in words, for the Activity page and the Account page's changes by an admin. */

/** Each action in words. */
export const ACTION_TEXT: Record<AuditAction, string> = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'token.issued': 'Token created',
  'token.revoked': 'Token revoked',
  'user.added': 'User added',
  'user.removed': 'User removed',
  'user.password_set': 'Password set',
  'user.quota_set': 'Limits set',
  'user.disabled': 'User disabled',
  'user.enabled': 'User enabled',
  'user.admin_set': 'Admin role changed',
  'user.sso_link_set': 'Single sign-on link changed',
  'user.email_set': 'Email changed',
  'invitation.created': 'Invitation created',
  'invitation.revoked': 'Invitation revoked',
  'mail.test_sent': 'Test mail sent',
  'branding.changed': 'Branding changed',
  'branding.logo_set': 'Logo set',
  'branding.logo_removed': 'Logo removed',
  'two_factor.enabled': 'Two-factor sign-in turned on',
  'two_factor.disabled': 'Two-factor sign-in turned off',
  'two_factor.recovery_codes_renewed': 'Recovery codes renewed',
  'two_factor.reset': 'Two-factor sign-in reset by an admin',
  'passkey.added': 'Passkey added',
  'passkey.removed': 'Passkey removed',
  'file.deleted': 'File deleted',
  'file.moved': 'File moved',
  'upload.infected': 'Upload refused by the virus scanner',
  'room.created': 'Room created',
  'room.changed': 'Room changed',
  'room.deleted': 'Room deleted',
  'link.created': 'Link created',
  'link.changed': 'Link changed',
  'link.deleted': 'Link deleted',
  'request.created': 'File request created',
  'request.changed': 'File request changed',
  'request.deleted': 'File request deleted',
  'reader.erased': 'Reader erased',
  'notification_channel.created': 'Notification channel added',
  'notification_channel.deleted': 'Notification channel deleted',
  'team.created': 'Team created',
  'team.changed': 'Team renamed',
  'team.deleted': 'Team deleted',
  'team.member_added': 'Team member added',
  'team.member_changed': "Team member's role changed",
  'team.member_removed': 'Team member removed',
  'team.quota_set': 'Team limits set',
  'team.owner_promoted': 'Team owner named (the only owner was removed)',
  'webhook.created': 'Webhook added',
  'webhook.deleted': 'Webhook deleted',
}

/** An entry's facts in one line: "label: ci · scopes: files:read". */
export function facts(detail: AuditEntryDto['detail']): string {
  return Object.entries(detail)
    .filter(([, value]) => value !== null && value !== '')
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ')
}
