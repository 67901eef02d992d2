import { describe, expect, it } from "vitest";
import { isSealed, openSecret, SecretBoxError, sealSecret } from "@/lib/domain/secret-box";

describe("secret box (credentials at rest)", () => {
  it("round-trips and never stores the plain text", () => {
    const sealed = sealSecret("ghp_token-123 ünïcode");
    expect(isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain("ghp_token");
    expect(openSecret(sealed)).toBe("ghp_token-123 ünïcode");
    expect(sealSecret("same")).not.toBe(sealSecret("same"));
  });

  it("refuses altered, truncated and plain values", () => {
    const sealed = sealSecret("secret");
    const i = sealed.length - 8; // inside the ciphertext, away from base64 padding bits
    const altered = sealed.slice(0, i) + (sealed[i] === "A" ? "B" : "A") + sealed.slice(i + 1);
    expect(() => openSecret(altered)).toThrow(SecretBoxError);
    expect(() => openSecret("sb1.AAAA")).toThrow(SecretBoxError);
    expect(() => openSecret("https://calendar.example/secret.ics")).toThrow(SecretBoxError);
  });
});
