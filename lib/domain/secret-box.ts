/**
 * Encryption at rest for third-party credentials the service must read back (activity connector
 * tokens, CalDAV passwords, secret calendar URLs): AES-256-GCM from node:crypto, with a key derived
 * (HKDF-SHA256) from the service secret (`authSecret()`, lib/env.ts). Hashing is for what is only
 * compared (API keys, passwords); this is for what must be sent on.
 *
 * Sealed format: `sb1.` + base64url(12-byte IV ‖ 16-byte tag ‖ ciphertext). A value sealed under
 * another secret (AUTH_SECRET changed) or altered fails to open with `SecretBoxError`; callers
 * degrade (a connector shows "reconnect") rather than fail the request.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/env";

const PREFIX = "sb1.";
let cachedKey: { secret: string; key: Buffer } | undefined;

/** Thrown when a sealed value cannot be opened (wrong secret, altered or not sealed by us). */
export class SecretBoxError extends Error {
  constructor(message = "the stored secret cannot be decrypted (was AUTH_SECRET changed?)") {
    super(message);
    this.name = "SecretBoxError";
  }
}

function key(): Buffer {
  const secret = authSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "checkin-secret-box", "v1 credentials at rest", 32)) };
  }
  return cachedKey.key;
}

/** Seals `plain` (UTF-8) for storage; a fresh random IV each call, so equal inputs differ. */
export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** True when `value` has the sealed format (used by migrations of older plaintext columns). */
export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

/**
 * Opens a value from `sealSecret`.
 * @throws SecretBoxError when it was sealed under another secret, altered, or is not sealed.
 */
export function openSecret(sealed: string): string {
  if (!isSealed(sealed)) throw new SecretBoxError("the stored value is not an encrypted secret");
  const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
  if (raw.length < 28) throw new SecretBoxError();
  const decipher = createDecipheriv("aes-256-gcm", key(), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  try {
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError();
  }
}
