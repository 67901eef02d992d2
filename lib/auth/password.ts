/**
 * Dashboard passwords: argon2id hashes (PHC string format, `$argon2id$v=19$...`) computed with
 * `@node-rs/argon2` using the OWASP-recommended parameters (19 MiB memory, 2 passes, 1 lane).
 */
import { hash, verify } from "@node-rs/argon2";

/** `Algorithm.Argon2id` (a const enum in the package's types, so spelt as its value here). */
const ARGON2ID = 2;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes a plaintext password with argon2id (random salt; roughly 20–50 ms of CPU).
 * @returns the PHC-format hash string to store in `users.password_hash`.
 * @throws Error when `plain` is empty.
 */
export async function hashPassword(plain: string): Promise<string> {
  if (plain.length === 0) throw new Error("Password must not be empty");
  return hash(plain, OPTIONS);
}

/**
 * Checks a plaintext password against a stored PHC hash (constant-time comparison).
 * @returns true on a match; false on a mismatch, an empty password or a malformed/null hash
 *   (never throws for bad input, so sign-in code can treat every failure the same way).
 */
export async function verifyPassword(storedHash: string | null | undefined, plain: string): Promise<boolean> {
  if (!storedHash || plain.length === 0) return false;
  try {
    return await verify(storedHash, plain);
  } catch {
    return false;
  }
}
