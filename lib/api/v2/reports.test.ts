/**
 * The v2 report JSON built in SQL (`reportWirePage`, issue 14) is byte
 * for byte what the TypeScript serializer gives (`JSON.stringify(serializeReportV2(view))`,
 * lib/api/v2/reports.ts) for the same reports: key order, anonymity, timestamps, answer order and
 * JSON string escaping, with and without answers, whatever the session's time zone. The routes
 * (GET /v2/reports, GET /v2/reports/{id}) send these texts as they are; their contract is tested
 * in tests/api/v2-reports.test.ts. The same holds for the v1 list item built in SQL
 * (lib/api/v1/reports.ts `reportWirePageV1` + `reportListV1Text`, GET /v1/reports/ without html) against
 * `JSON.stringify(serializeReportListItemV1(row))`, Gravatar URLs of unusual e-mails included.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { reportListV1Text, reportWirePageV1, serializeReportListItemV1 } from "@/lib/api/v1/reports";
import { reportWirePage, serializeReportV2 } from "@/lib/api/v2/reports";
import { db } from "@/lib/db";
import { reportDetailPage, reportViewPage } from "@/lib/domain/report-pages";
import { Prisma } from "@/lib/generated/prisma/client";
import { createTestCheckin, createTestReport, createTestTeam, createTestUser, type TestTeam } from "@/tests/fixtures";
import { inKolkataSession } from "@/tests/tricky-strings";

/** Answer texts that JSON escaping must get right: quotes, backslashes, control characters, non-BMP. */
const TRICKY = [
  'He said "ship it" \\ then left',
  "line one\nline two\r\n\ttabbed \b \f end",
  "control \u0001 \u001f and del \u007f",
  "emoji 🚀, accents éü, CJK 漢字, separators \u2028 \u2029",
  "",
  "<script>alert('x')</script> & </p>",
];

let A: TestTeam;
let where: Prisma.Sql;
let plainQuestionIds: number[];

/** E-mails whose Gravatar hash needs JS's trim and toLowerCase (see `reportWirePageV1`), and ordinary ones. */
const EMAILS = ["Mixed.Case@Example.COM", "  padded@example.com ", "ÜBER.straße@example.com", "İstanbul@example.com", "tab\t@example.com"];

beforeAll(async () => {
  A = await createTestTeam({ members: 3 });
  const [admin, m0, m1] = A.users;
  const plain = await createTestCheckin(A, {
    name: 'Daily "core" \\ standup',
    questions: TRICKY.slice(0, 3).map((text) => ({ text: `Q ${text}` })),
  });
  // Positions opposite to id order: answers must come by position, then question id.
  await db.$transaction(
    plain.questions.map((q, i) => db.question.update({ where: { id: q.id }, data: { position: plain.questions.length - 1 - i } })),
  );
  const anonymous = await createTestCheckin(A, { name: "Pulse", is_anonymous: true });
  const confidential = await createTestCheckin(A, { name: "1:1 notes", is_confidential: true });
  const times = ["2026-03-02T09:00:00.000Z", "2026-03-02T09:00:00.007Z", "2026-03-29T01:30:59.999Z", "2026-12-31T23:59:59.120Z"];
  await createTestReport(plain, admin, { submitted_at: new Date(times[0]), answers: TRICKY.slice(0, 3) });
  await createTestReport(plain, m0, { submitted_at: new Date(times[1]), answers: TRICKY.slice(3, 6) });
  await createTestReport(plain, m1, { submitted_at: new Date(times[1]), is_anonymous: true });
  await createTestReport(anonymous, m0, { submitted_at: new Date(times[2]) });
  await createTestReport(anonymous, m1, { submitted_at: new Date(times[2]), is_anonymous: false });
  await createTestReport(confidential, admin, { submitted_at: new Date(times[3]), answers: ["x", "y", "z"] });
  // v1 renderings: authors without an avatar (Gravatar), a broadcast message, a checkin without a channel.
  const noAvatar = [];
  for (const email of EMAILS) {
    const u = await createTestUser(A.id, { name: "Grav" });
    await db.user.update({ where: { id: u.id }, data: { email, avatar_url: email.startsWith("M") ? "" : null } });
    noAvatar.push(u);
  }
  const unbroadcast = await createTestCheckin(A, { name: "No channel", channel: null, members: [...A.users, ...noAvatar] });
  for (const [i, u] of noAvatar.entries()) {
    const report = await createTestReport(unbroadcast, u, {
      submitted_at: new Date(Date.UTC(2026, 1, 1, 8, 0, i, 999)),
      answers: [TRICKY[i % 6]],
    });
    if (i < 2) {
      // Two broadcast messages (the newest one counts) and a deleted one that must not.
      for (const [ts, deleted] of [
        [`170000000${i}.000100`, false],
        [`170000000${i}.000200`, false],
        [`170000000${i}.000300`, true],
      ] as const) {
        await db.chatMessage.create({
          data: { team_id: A.id, ts, kind: "report", report_id: report.id, text: "r", deleted_at: deleted ? new Date() : null },
        });
      }
    }
  }
  plainQuestionIds = plain.questions.map((q) => q.id);
  where = Prisma.sql`r.team_id = ${A.id} AND r.status = 'submitted'`;
});

describe("reportWirePage", () => {
  for (const withAnswers of [true, false]) {
    it(`returns JSON.stringify(serializeReportV2(view)) of every report (${withAnswers ? "with" : "without"} answers)`, async () => {
      const views = await reportViewPage(where, 100, { withAnswers });
      const wires = await reportWirePage(where, 100, { withAnswers });
      expect(views).toHaveLength(11);
      expect(wires.map((w) => w.json)).toEqual(views.map((v) => JSON.stringify(serializeReportV2(v))));
      expect(wires.map((w) => [w.id, w.submitted_at])).toEqual(views.map((v) => [v.id, v.submitted_at.toISOString()]));
    });
  }

  it("puts answers in question position order and nulls the author of anonymous reports", async () => {
    const wires = await reportWirePage(where, 100, { withAnswers: true });
    const parsed = wires.map((w) => JSON.parse(w.json));
    const first = parsed.find((r) => r.answers[0]?.answer === TRICKY[2]);
    expect(first.answers.map((a: { answer: string }) => a.answer)).toEqual([TRICKY[2], TRICKY[1], TRICKY[0]]);
    expect(parsed.filter((r) => r.user_id === null)).toHaveLength(2);
    expect(parsed.every((r) => r.is_anonymous === (r.user_id === null))).toBe(true);
  });

  it("prints UTC timestamps whatever the session's time zone", async () => {
    const views = await reportViewPage(where, 100, { withAnswers: false });
    const wires = await inKolkataSession((tx) => reportWirePage(where, 100, { withAnswers: false }, tx));
    expect(wires.map((w) => JSON.parse(w.json).posted_at)).toEqual(views.map((v) => v.submitted_at.toISOString()));
    expect(wires.map((w) => w.submitted_at)).toEqual(views.map((v) => v.submitted_at.toISOString())); // the position too
  });

  it("honours the page size and the filter", async () => {
    const wires = await reportWirePage(Prisma.sql`${where} AND NOT r.is_anonymous`, 2, { withAnswers: true });
    expect(wires).toHaveLength(2);
    expect(wires.every((w) => JSON.parse(w.json).user_id !== null)).toBe(true);
  });
});

describe("reportWirePageV1", () => {
  const v1Texts = async (w: Prisma.Sql, questionIds?: number[]) => {
    const rows = await reportDetailPage(w, 100, { questionIds });
    const page = await reportWirePageV1(w, 100, { questionIds });
    return { expected: JSON.stringify(rows.map((row) => serializeReportListItemV1(row))), actual: reportListV1Text(page), page };
  };

  it("returns JSON.stringify of serializeReportListItemV1 over every report, as one text", async () => {
    const { expected, actual } = await v1Texts(where);
    expect(JSON.parse(actual)).toHaveLength(11);
    expect(actual).toBe(expected);
  });

  it("is the same with only some questions' answers, and an empty array for no report", async () => {
    const { expected, actual } = await v1Texts(where, plainQuestionIds.slice(1));
    expect(actual).toBe(expected);
    expect(actual).not.toContain(TRICKY[0].slice(0, 8));
    const none = await v1Texts(Prisma.sql`false`);
    expect([none.actual, none.expected, none.page.gravatar]).toEqual(["[]", "[]", []]);
  });

  it("hashes printable-ASCII e-mails in SQL and leaves the others to Node", async () => {
    const { page, actual } = await v1Texts(where);
    // Whitespace and non-ASCII go to Node; "Mixed.Case" (ASCII, avatar_url "") is hashed in SQL.
    expect(page.gravatar.map((g) => g.email).sort()).toEqual(EMAILS.slice(1).sort());
    const left = new Set(page.gravatar.map((g) => g.id));
    const raw = JSON.parse(page.json) as Array<{ id: number; member?: { profileImg: unknown } }>;
    expect(raw.filter((i) => left.has(i.id)).every((i) => i.member?.profileImg === null)).toBe(true);
    const items = JSON.parse(actual);
    const mixed = items.find(
      (i: { id: number; member?: { profileImg: { image_24: string } } }) =>
        i.member?.profileImg.image_24.includes("gravatar") && !left.has(i.id),
    );
    expect(mixed.member.profileImg.image_512).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=192&d=identicon$/);
    expect(items.filter((i: { member?: unknown }) => i.member === undefined)).toHaveLength(2);
    expect(
      items.filter((i: { chat_ts: string; slack_ts: string }) => /^170000000[01]\.000200$/.test(i.chat_ts) && i.slack_ts === i.chat_ts),
    ).toHaveLength(2);
  });

  it("prints Unix seconds whatever the session's time zone", async () => {
    const { expected } = await v1Texts(where);
    const page = await inKolkataSession((tx) => reportWirePageV1(where, 100, {}, tx));
    expect(reportListV1Text(page)).toBe(expected);
  });
});
