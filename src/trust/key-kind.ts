import { createPrivateKey, createPublicKey } from 'node:crypto';

/** Which kind of key `text` (PEM or base64 DER) holds, if it is one at all. */
export function keyKind(text: string): 'private' | 'public' | undefined {
  const pem = text.includes('-----BEGIN');
  if (pem) return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text) ? 'private' : 'public';
  const der = Buffer.from(text, 'base64');
  for (const [kind, parse] of [
    ['private', () => createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })],
    ['public', () => createPublicKey({ key: der, format: 'der', type: 'spki' })],
  ] as const) {
    try {
      parse();
      return kind;
    } catch {
      // not this kind
    }
  }
  return undefined;
}
