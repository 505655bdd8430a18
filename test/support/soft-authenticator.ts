import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { encodeCBOR } from '@levischuck/tiny-cbor'

// A passkey authenticator in software, for API tests without a browser: what a platform authenticator answers to
// navigator.credentials.create and .get (ES256, "none" attestation, user present and verified), encoded the way
// @simplewebauthn/browser hands it to the server. test/e2e/passkeys.test.ts uses Chromium's virtual one instead.

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()
const UP = 0x01
const UV = 0x04
const AT = 0x40

export type SoftPasskey = { id: Buffer; key: KeyObject; userHandle: string; counter: number }

/** The registration answer to `options` (POST /api/me/passkeys/options) at `origin`, and the passkey it made. */
export function createPasskey(
  options: { challenge: string; rp: { id?: string }; user: { id: string } },
  origin: string,
): { credential: Record<string, unknown>; passkey: SoftPasskey } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  const jwk = publicKey.export({ format: 'jwk' })
  const cose = new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ])
  const id = randomBytes(16)
  const length = Buffer.alloc(2)
  length.writeUInt16BE(id.length)
  const authData = Buffer.concat([
    sha256(options.rp.id!),
    Buffer.from([UP | UV | AT]),
    Buffer.alloc(4), // signature counter 0
    Buffer.alloc(16), // AAGUID: none
    length,
    id,
    Buffer.from(encodeCBOR(cose)),
  ])
  const attestation = encodeCBOR(
    new Map<string, string | Uint8Array | Map<string, never>>([
      ['fmt', 'none'],
      ['attStmt', new Map<string, never>()],
      ['authData', authData],
    ]),
  )
  const clientData = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false })
  return {
    credential: {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientData), attestationObject: b64url(attestation), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    },
    passkey: { id, key: privateKey, userHandle: options.user.id, counter: 0 },
  }
}

/** The sign-in answer of `passkey` to `options` (POST /api/auth/passkey/options) at `origin`. */
export function usePasskey(passkey: SoftPasskey, options: { challenge: string; rpId?: string }, origin: string): Record<string, unknown> {
  passkey.counter += 1
  const counter = Buffer.alloc(4)
  counter.writeUInt32BE(passkey.counter)
  const authData = Buffer.concat([sha256(options.rpId!), Buffer.from([UP | UV]), counter])
  const clientData = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false })
  const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), { key: passkey.key, dsaEncoding: 'der' })
  return {
    id: b64url(passkey.id),
    rawId: b64url(passkey.id),
    type: 'public-key',
    response: {
      clientDataJSON: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: passkey.userHandle,
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  }
}
