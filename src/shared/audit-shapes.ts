/**
 * The audit log's actions, for the server and the dashboard's filter alike (docs/api.md, Audit log). Bundled into
 * the browser: constants only.
 */
export const AUDIT_ACTIONS = [
  'sign_in.succeeded',
  'sign_in.failed',
  'token.issued',
  'token.revoked',
  'user.added',
  'user.removed',
  'user.password_set',
  'user.quota_set',
  'user.disabled',
  'user.enabled',
  'user.admin_set',
  'user.sso_link_set',
  'user.email_set',
  'invitation.created',
  'invitation.revoked',
  'mail.test_sent',
  'two_factor.enabled',
  'two_factor.disabled',
  'two_factor.recovery_codes_renewed',
  'two_factor.reset',
  'passkey.added',
  'passkey.removed',
  'file.deleted',
  'link.created',
  'link.changed',
  'link.deleted',
  'reader.erased',
  'webhook.created',
  'webhook.deleted',
  'notification_channel.created',
  'notification_channel.deleted',
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]
