import {
  createHash,
  createPrivateKey,
  createPublicKey,
  randomUUID,
  X509Certificate,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { SignJWT } from 'jose';

/**
 * The bot's certificate credential (Microsoft identity platform "certificate
 * credentials"): instead of a client secret, the bot proves itself to Entra ID's token
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

const CERT_VAR = 'TEAMS_CERTIFICATE_FILE';
const KEY_VAR = 'TEAMS_CERTIFICATE_KEY_FILE';

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

/** The client assertion for one token request (see the module comment). */
export async function clientAssertion(
  credential: CertificateCredential,
  options: { appId: string; tokenUrl: string; nowSeconds: number },
): Promise<string> {
  const now = options.nowSeconds;
  return new SignJWT({})
    .setProtectedHeader({ alg: 'PS256', typ: 'JWT', 'x5t#S256': credential.thumbprintSha256 })
    .setAudience(options.tokenUrl)
    .setIssuer(options.appId)
    .setSubject(options.appId)
    .setJti(randomUUID())
    .setNotBefore(now)
    .setIssuedAt(now)
    .setExpirationTime(now + ASSERTION_LIFETIME_SECONDS)
    .sign(credential.privateKey);
}

export interface CertificateEvents {
  /** A certificate was read: the first one, or a rotated one. */
  loaded?(credential: Pick<CertificateCredential, 'thumbprintSha1' | 'notBefore' | 'notAfter'>): void;
  /** The files changed but cannot be used; the last good certificate is kept. */
  unusable?(error: CertificateError): void;
}

export interface CertificateSource {
  /** The certificate as the files hold it now (re-read on every call). */
  current(): Promise<CertificateCredential>;
}

/**
 * The certificate from its files, read again on every call (once per token fetch): the
 * parsed pair is kept while the files' text is unchanged. When they changed but do not
 * make a usable pair (a rotation caught half-way, a wrong key), the last good pair is
 * kept and `unusable` says why; with no good pair yet, the error is thrown.
 */
export function certificateSource(
  files: CertificateFiles,
  events: CertificateEvents = {},
): CertificateSource {
  let last: { digest: string; credential: CertificateCredential } | undefined;
  let lastBad: string | undefined;
  return {
    async current() {
      const read = async (path: string, name: string): Promise<string> => {
        try {
          return await readFile(path, 'utf8');
        } catch (error) {
          throw new CertificateError(
            `${name}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
          );
        }
      };
      let certificatePem: string;
      let keyPem: string;
      try {
        certificatePem = await read(files.certificateFile, CERT_VAR);
        keyPem =
          files.keyFile === files.certificateFile ? certificatePem : await read(files.keyFile, KEY_VAR);
      } catch (error) {
        if (!(error instanceof CertificateError) || last === undefined) throw error;
        events.unusable?.(error);
        return last.credential;
      }
      const digest = createHash('sha256').update(certificatePem).update('\0').update(keyPem).digest('hex');
      if (last?.digest === digest) return last.credential;
      try {
        const credential = parseCertificateCredential(certificatePem, keyPem);
        last = { digest, credential };
        lastBad = undefined;
        events.loaded?.(credential);
        return credential;
      } catch (error) {
        if (!(error instanceof CertificateError) || last === undefined) throw error;
        if (lastBad !== digest) events.unusable?.(error);
        lastBad = digest;
        return last.credential;
      }
    },
  };
}
