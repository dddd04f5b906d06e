/**
 * Signing with the bot's certificate credential (src/config/teams-certificate.ts reads
 * and checks it; its comment says what the assertion holds): the client assertion of one
 * token request, and the certificate from its files, read again at every token fetch.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SignJWT } from 'jose';
import {
  ASSERTION_LIFETIME_SECONDS,
  CERT_VAR,
  CertificateError,
  KEY_VAR,
  parseCertificateCredential,
  type CertificateCredential,
  type CertificateFiles,
} from '../../config/teams-certificate.js';

export {
  ASSERTION_LIFETIME_SECONDS,
  CLIENT_ASSERTION_TYPE,
  CertificateError,
  parseCertificateCredential,
  readCertificateCredential,
  type CertificateCredential,
  type CertificateFiles,
} from '../../config/teams-certificate.js';

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

interface CertificateEvents {
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
