import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Signing secrets, as the Standard Webhooks specification has them: `whsec_` and the base64 of
 * random bytes; the HMAC key is those bytes. A receiver verifies with any Standard Webhooks
 * library, or with an HMAC of its own (docs/API.md, "Webhooks").
 */

export const SECRET_PREFIX = 'whsec_';
/** Bytes of a new secret (the specification asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret, `whsec_<base64 of 32 random bytes>`. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * The `webhook-signature` header of a message: `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the bytes the secret's base64 stands for.
 */
export function signature(secret: string, id: string, timestampS: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampS}.${body}`).digest('base64')}`;
}

const CIPHER = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Marks the format of a sealed secret, so that another one can follow it. */
const SEALED = 'v1.';

/**
 * Keeps signing secrets unreadable at rest. A secret must be read back to sign (it cannot be
 * hashed like an API key), so it is stored sealed: AES-256-GCM under a key derived from
 * WEBHOOK_SECRET_KEY (HKDF-SHA256), bound to its webhook's id. A copy of the database alone
 * reveals no secret, and a sealed secret moved to another row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: Buffer | string) {
    this.key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'trackgraph webhook secrets v1', 32));
  }

  seal(secret: string, webhookId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, iv);
    cipher.setAAD(Buffer.from(webhookId, 'utf8'));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url')}`;
  }

  /** The secret sealed for this webhook; throws when it was sealed under another key or for another webhook. */
  open(sealed: string, webhookId: string): string {
    if (!sealed.startsWith(SEALED)) throw new Error('a webhook secret in an unknown format');
    const bytes = Buffer.from(sealed.slice(SEALED.length), 'base64url');
    const decipher = createDecipheriv(CIPHER, this.key, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(webhookId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
