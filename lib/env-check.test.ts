/** Start-up validation of the configuration (issue 44): one line per problem, naming the variable and the fix. */
import { describe, expect, it } from "vitest";
import { validateEnvironment } from "@/lib/env";
import { environmentProblems } from "@/lib/env-check";

describe("environmentProblems", () => {
  it("accepts an empty environment and a complete valid one", () => {
    expect(environmentProblems({})).toEqual([]);
    expect(
      environmentProblems({
        PORT: "8080",
        DATABASE_URL: "postgresql://u:p@db:5432/checkin",
        DIRECT_DATABASE_URL: "postgres://u:p@db:5432/checkin",
        PUBLIC_URL: "https://checkin.example.com",
        SMTP_URL: "smtps://u:p@mail.example.com:465",
        AUTH_SECRET: "0123456789abcdef0123",
        TRUST_PROXY: "yes",
        WEBHOOK_RETRY_DELAYS: "5,300",
        GITHUB_CLIENT_ID: "id",
        GITHUB_CLIENT_SECRET: "secret",
        LLM_BASE_URL: "http://127.0.0.1:11434/v1",
        LLM_MODEL: "m",
        PORT_UNRELATED: "x",
        SMTP_UNUSED: "",
        METRICS_TOKEN: "",
      }),
    ).toEqual([]);
  });

  it("names each malformed variable with its fix", () => {
    const problems = environmentProblems({
      PORT: "80a",
      DATABASE_URL: "mysql://db/checkin",
      PUBLIC_URL: "checkin.example.com",
      SMTP_URL: "http://mail",
      TRUST_PROXY: "maybe",
      AUTH_SECRET: "tiny7",
      CHECKIN_BACKUP_KEEP: "0",
    });
    expect(problems).toEqual([
      "PORT must be a whole number from 1 to 65535, e.g. 3000",
      "DATABASE_URL is not a postgres:// or postgresql:// URL; set it like postgresql://user:password@host:5432/checkin",
      "PUBLIC_URL is not a http:// or https:// URL; set it like https://checkin.example.com",
      "SMTP_URL is not a smtp:// or smtps:// URL; set it like smtp://user:password@mail.example.com:587",
      "AUTH_SECRET is shorter than 16 characters; generate one with: openssl rand -base64 32",
      "CHECKIN_BACKUP_KEEP must be a whole number from 1 to 10000, e.g. 7",
      "TRUST_PROXY must be true or false (also 1/0, on/off, yes/no)",
    ]);
    expect(problems.join("\n")).not.toContain("tiny7"); // values are not echoed
    expect(environmentProblems({ PORT: "70000" })).toEqual(["PORT must be a whole number from 1 to 65535, e.g. 3000"]);
  });

  it("checks LOG_LEVEL and LOG_FORMAT (issue 44, structured logs)", () => {
    expect(environmentProblems({ LOG_LEVEL: "debug", LOG_FORMAT: "pretty" })).toEqual([]);
    expect(environmentProblems({ LOG_LEVEL: "INFO", LOG_FORMAT: "JSON" })).toEqual([]);
    expect(environmentProblems({ LOG_LEVEL: "verbose", LOG_FORMAT: "text" })).toEqual([
      "LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, e.g. info",
      "LOG_FORMAT must be json or pretty, e.g. json",
    ]);
  });

  it("reports contradictory settings", () => {
    expect(
      environmentProblems({
        GITHUB_CLIENT_ID: "id",
        LLM_MODEL: "m",
        DIRECT_DATABASE_URL: "postgresql://u:p@db/c",
        OIDC_ISSUER: "https://id.example.com",
      }),
    ).toEqual([
      "GITHUB_CLIENT_ID is set but GITHUB_CLIENT_SECRET is not; set both or neither",
      "LLM_MODEL is set but LLM_BASE_URL is not; set both or neither",
      "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET work together; set all three or none",
      "DIRECT_DATABASE_URL is set without DATABASE_URL; set DATABASE_URL too, or unset it for the embedded database",
    ]);
    expect(environmentProblems({ DATABASE_URL: "postgresql://u:p@db/c", CHECKIN_BACKUP_DIR: "/b" })[0]).toMatch(
      /^CHECKIN_BACKUP_DIR is set with DATABASE_URL/,
    );
  });

  it("validateEnvironment reads process.env", () => {
    const before = process.env.PORT;
    process.env.PORT = "0";
    try {
      expect(validateEnvironment()).toContain("PORT must be a whole number from 1 to 65535, e.g. 3000");
    } finally {
      if (before === undefined) delete process.env.PORT;
      else process.env.PORT = before;
    }
  });
});
