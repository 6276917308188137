import { createHmac } from 'node:crypto';
import { Webhook as Verifier } from 'standardwebhooks';
import { SecretBox, newSigningSecret, signature } from '../../../src/webhooks/webhook.secrets';

describe('signing secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, a new one each time', () => {
    const a = newSigningSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newSigningSecret()).not.toBe(a);
  });

  it('sign as the Standard Webhooks library does: v1, base64 HMAC-SHA256 of "id.timestamp.body" under the decoded bytes', () => {
    const secret = newSigningSecret();
    const body = JSON.stringify({ type: 'webhook.test', timestamp: '2026-03-01T12:00:00.000Z', data: { webhookId: 'wh_1' } });
    const header = signature(secret, 'msg_1', 1_772_366_400, body);
    expect(header).toBe(new Verifier(secret).sign('msg_1', new Date(1_772_366_400_000), body));
    const hmac = createHmac('sha256', Buffer.from(secret.slice(6), 'base64')).update(`msg_1.1772366400.${body}`).digest('base64');
    expect(header).toBe(`v1,${hmac}`);
  });
});

describe('SecretBox: signing secrets at rest', () => {
  const box = new SecretBox('a key of at least thirty-two characters');

  it('opens what it sealed for the same webhook, and the sealed text does not contain the secret', () => {
    const secret = newSigningSecret();
    const sealed = box.seal(secret, 'wh_1');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, 'wh_1')).toBe(secret);
    // A fresh nonce each time: the same secret seals differently.
    expect(box.seal(secret, 'wh_1')).not.toBe(sealed);
  });

  it('refuses a secret moved to another webhook, sealed under another key, or altered', () => {
    const sealed = box.seal(newSigningSecret(), 'wh_1');
    expect(() => box.open(sealed, 'wh_2')).toThrow();
    expect(() => new SecretBox('another key of at least thirty-two chars').open(sealed, 'wh_1')).toThrow();
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    expect(() => box.open(`v1.${bytes.toString('base64url')}`, 'wh_1')).toThrow();
    expect(() => box.open('plain text', 'wh_1')).toThrow(/unknown format/);
  });
});
