import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";

describe("password hashing", () => {
  it("hashes with argon2id and verifies the right password only", async () => {
    const h = await hashPassword("demo-password");
    expect(h.startsWith("$argon2id$")).toBe(true);
    expect(await verifyPassword(h, "demo-password")).toBe(true);
    expect(await verifyPassword(h, "demo-passwore")).toBe(false);
    expect(await verifyPassword(h, "")).toBe(false);
  });

  it("salts every hash", async () => {
    const [a, b] = await Promise.all([hashPassword("same"), hashPassword("same")]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(b, "same")).toBe(true);
  });

  it("returns false for malformed or missing hashes and rejects empty passwords", async () => {
    expect(await verifyPassword("not-a-hash", "x")).toBe(false);
    expect(await verifyPassword(null, "x")).toBe(false);
    await expect(hashPassword("")).rejects.toThrow();
  });
});
