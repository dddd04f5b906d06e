import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The bot's certificate credential, as the configuration reads and checks it (the
 * signing is the Teams adapter's: src/chat/teams/certificate.ts). Microsoft identity
 * platform "certificate credentials": instead of a client secret, the bot proves itself to Entra ID's token
 * endpoint with a client assertion, a JWT it signs with the private key of a certificate
 * uploaded to its app registration:
 *
 * - header: `alg` PS256, `typ` JWT, `x5t#S256` the base64url SHA-256 thumbprint of the
 *   certificate's DER encoding (Entra finds the registered certificate by it);
 * - claims: `aud` the token endpoint the assertion is posted to, `iss` = `sub` = the app
 *   id, `jti` a fresh UUID, `nbf` = `iat` = now, `exp` 10 minutes later;
 * - posted as `client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer`
 *   and `client_assertion=<JWT>` in place of `client_secret`.
 *
 * The certificate and key are PEM files (TEAMS_CERTIFICATE_FILE, TEAMS_CERTIFICATE_KEY_FILE;
 * one file may hold both). They are read again at every token fetch, so a rotated
 * certificate (a Kubernetes Secret volume updated in place) is used from the next token
 * on, without a restart; a read that finds them half-written keeps the last good pair.
 * No message here ever holds key material: errors name the variable and what is wrong.
 */

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Seconds an assertion is good for (Microsoft: "5-10 minutes after nbf at most"). */
export const ASSERTION_LIFETIME_SECONDS = 600;
const MIN_RSA_BITS = 2048;

export interface CertificateFiles {
  /** PEM: the certificate (the chain may follow; the one matching the key is used). */
  certificateFile: string;
  /** PEM: its private key (PKCS#8 or PKCS#1, not encrypted); may be the certificate file. */
  keyFile: string;
}

/** A certificate and its private key, ready to sign assertions. */
export interface CertificateCredential {
  /** Base64url SHA-256 of the certificate's DER: the `x5t#S256` header. */
  readonly thumbprintSha256: string;
  /** Hex SHA-1 of the DER, upper case: the thumbprint the Entra admin center shows. */
  readonly thumbprintSha1: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly privateKey: KeyObject;
}

/** The certificate files are unusable; the message names the variable and never the key. */
export class CertificateError extends Error {
  override name = 'CertificateError';
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

function pemBlocks(text: string): { label: string; pem: string }[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1] ?? '', pem: m[0] }));
}

export const CERT_VAR = 'TEAMS_CERTIFICATE_FILE';
export const KEY_VAR = 'TEAMS_CERTIFICATE_KEY_FILE';

function privateKeyOf(text: string, keyVar: string): KeyObject {
  const keys = pemBlocks(text).filter((b) => b.label.endsWith('PRIVATE KEY'));
  if (keys.length === 0) throw new CertificateError(`${keyVar} holds no PEM private key`);
  if (keys.length > 1) throw new CertificateError(`${keyVar} holds ${keys.length} private keys: keep one`);
  const [block] = keys;
  if (block === undefined || block.label === 'ENCRYPTED PRIVATE KEY')
    throw new CertificateError(
      `${keyVar}: the private key is encrypted; mount it decrypted (a Kubernetes Secret)`,
    );
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: block.pem, format: 'pem' });
  } catch {
    // OpenSSL's reason is dropped on purpose: nothing of the key goes into a message.
    throw new CertificateError(`${keyVar}: the private key cannot be read (PKCS#8 or PKCS#1 PEM, RSA)`);
  }
  if (key.asymmetricKeyType !== 'rsa')
    throw new CertificateError(
      `${keyVar}: the private key is ${key.asymmetricKeyType ?? 'not asymmetric'}; Entra certificate credentials are RSA`,
    );
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    throw new CertificateError(
      `${keyVar}: the RSA key has ${bits} bits; at least ${MIN_RSA_BITS} are needed`,
    );
  return key;
}

const spki = (key: KeyObject): Buffer => key.export({ type: 'spki', format: 'der' });

/**
 * Parses the certificate and key PEM text; the certificate used is the one whose public
 * key is the private key's (a chain may be in the file).
 * @throws CertificateError
 */
export function parseCertificateCredential(
  certificatePem: string,
  keyPem: string,
  names: { certificate: string; key: string } = { certificate: CERT_VAR, key: KEY_VAR },
): CertificateCredential {
  const privateKey = privateKeyOf(keyPem, names.key);
  const blocks = pemBlocks(certificatePem).filter((b) => b.label === 'CERTIFICATE');
  if (blocks.length === 0) throw new CertificateError(`${names.certificate} holds no PEM certificate`);
  const certificates = blocks.map((b) => {
    try {
      return new X509Certificate(b.pem);
    } catch {
      throw new CertificateError(`${names.certificate}: a certificate cannot be read (PEM X.509)`);
    }
  });
  const own = spki(createPublicKey(privateKey));
  const certificate = certificates.find((c) => spki(c.publicKey).equals(own));
  if (certificate === undefined)
    throw new CertificateError(
      `${names.key}: the private key belongs to no certificate in ${names.certificate} (certificate ${certificates[0]?.fingerprint.replaceAll(':', '') ?? ''})`,
    );
  return Object.freeze({
    thumbprintSha256: createHash('sha256').update(certificate.raw).digest('base64url'),
    thumbprintSha1: createHash('sha1').update(certificate.raw).digest('hex').toUpperCase(),
    notBefore: new Date(certificate.validFrom),
    notAfter: new Date(certificate.validTo),
    privateKey,
  });
}

/**
 * Reads and parses the files now (the configuration check at start).
 * @throws CertificateError
 */
export function readCertificateCredential(files: CertificateFiles): CertificateCredential {
  const read = (path: string, name: string): string => {
    try {
      return readFileSync(path, 'utf8');
    } catch (error) {
      throw new CertificateError(
        `${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  };
  return parseCertificateCredential(read(files.certificateFile, CERT_VAR), read(files.keyFile, KEY_VAR));
}
