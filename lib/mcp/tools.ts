/**
 * The tools of the MCP server (issue 48): each one is a v2 API request in another envelope. The
 * arguments are typed (JSON numbers, booleans, arrays), then validated by the API's own zod
 * schemas (the query schemas of lib/api/v2/*, given the arguments in query-string form, and the
 * body schemas as they are), so an argument is refused with the same INVALID_PARAMETER message as
 * the API's; the answer is the API's JSON text (lib/api/route.ts `runList` / `runRead`, the same
 * specs and renderers as the routes), so visibility, anonymity and suppression are the API's.
 * Writes run through the API's idempotency store (`idempotency_key`, spec §7): a key replays
 * across MCP and REST calls for the same body.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { dataEnvelopeText } from "@/lib/api/envelope";
import { json } from "@/lib/api/errors";
import { parseIdempotencyKey, requestFingerprint, runIdempotent } from "@/lib/api/idempotency";
import { parseWith, zDate } from "@/lib/api/query";
import { runList, runRead } from "@/lib/api/route";
import { participationList, participationQuerySchema } from "@/lib/api/v2/participation";
import { reportCreateBodySchema, submitReportResult, toSubmitReportInput } from "@/lib/api/v2/report-writes";
import { reportList, reportListQuerySchema } from "@/lib/api/v2/reports";
import { checkinList, checkinListQuerySchema, checkinRead, checkinReadQuerySchema, INCLUDE_VALUES } from "@/lib/api/v2/standups";
import { getCheckinWire, listCheckinWires } from "@/lib/api/v2/standups-sql";
import { serializeVoteV2, toCastVoteInput, voteCreateBodySchema } from "@/lib/api/v2/vote-writes";
import { pollVotesWire, votesQuerySchema } from "@/lib/api/v2/votes";
import type { Actor } from "@/lib/domain/actor";
import { type BlockerItem, listBlockers } from "@/lib/domain/blockers";
import { InvalidParameterError } from "@/lib/domain/errors";
import { castVote } from "@/lib/domain/vote-writes";
import { answerTool, toQuery } from "@/lib/mcp/results";

const id = (what: string) => z.number().int().min(1).describe(`${what} id`);
const date = (what: string) => z.string().describe(`${what}: ISO 8601 instant or YYYY-MM-DD`);
const limit = z.number().int().min(1).max(100).describe("Page size, 1 to 100");
const cursor = z.string().describe("next_cursor of the previous page");
const include = z.array(z.enum(INCLUDE_VALUES)).describe("Extra fields: questions (with their ids, needed to post), member fields");
const idempotencyKey = z
  .string()
  .describe("Optional Idempotency-Key (spec §7): the same key and arguments within 24 h return the first answer instead of writing again");

/** Arguments of list_standups / list_polls: GET /v2/standups and /v2/polls filters (spec §4.1). */
const checkinListArgs = {
  state: z.array(z.enum(["active", "paused"])).optional(),
  is_anonymous: z.boolean().optional(),
  broadcast_channel: z.string().optional().describe("Channel id"),
  created_since: date("Created at or after").optional(),
  created_until: date("Created before").optional(),
  include: include.optional(),
  limit: limit.optional(),
  cursor: cursor.optional(),
};

/** Arguments of list_reports: the filters of GET /v2/reports (spec §4.2). */
export const reportListArgs = {
  standup_id: id("Standup").optional(),
  user_id: z.string().optional().describe("Author's chat user id"),
  since: date("Submitted at or after (default 7 days ago)").optional(),
  until: date("Submitted before (default now; window at most 90 days)").optional(),
  view: z.enum(["summary", "full"]).optional().describe("full (default) includes answers"),
  limit: limit.optional(),
  cursor: cursor.optional(),
};

/** Read-only tools touch nothing; writes are not destructive (a report is edited, a vote replaced). */
const READ = { readOnlyHint: true, openWorldHint: false } as const;
const WRITE = { readOnlyHint: false, destructiveHint: false, openWorldHint: false } as const;

/** Registers every tool on `server`, each answering for `actor` (the API key's user). */
export function registerTools(server: McpServer, actor: Actor): void {
  server.registerTool(
    "list_standups",
    {
      title: "List standups",
      description: "Active and paused standups you can see (as GET /v2/standups).",
      inputSchema: checkinListArgs,
      annotations: READ,
    },
    (args) =>
      answerTool(() =>
        runList(checkinList("v2.standups", listCheckinWires), { actor, id: 0, query: parseWith(checkinListQuerySchema, toQuery(args)) }),
      ),
  );
  server.registerTool(
    "get_standup",
    {
      title: "Get a standup",
      description: "One standup you can see, with its questions by default (as GET /v2/standups/{id}).",
      inputSchema: { standup_id: id("Standup"), include: include.optional() },
      annotations: READ,
    },
    ({ standup_id, include }) =>
      answerTool(() => {
        const query = parseWith(checkinReadQuerySchema, toQuery({ include: include ?? ["questions"] }));
        return runRead(checkinRead("standup", getCheckinWire), { actor, id: standup_id, query });
      }),
  );
  server.registerTool(
    "list_reports",
    {
      title: "List reports",
      description: "Submitted reports of standups you can see, newest first (as GET /v2/reports); anonymous reports carry no author.",
      inputSchema: reportListArgs,
      annotations: READ,
    },
    (args) => answerTool(() => runList(reportList, { actor, id: 0, query: parseWith(reportListQuerySchema, toQuery(args)) })),
  );
  server.registerTool(
    "post_report",
    {
      title: "Post a report",
      description:
        "Submits your report to one of your active standups and broadcasts it (as POST /v2/reports): answer every required question " +
        "(question ids from get_standup). A second report for the same run edits the first.",
      inputSchema: { ...reportCreateBodySchema.shape, idempotency_key: idempotencyKey.optional() },
      annotations: WRITE,
    },
    ({ idempotency_key, ...body }) =>
      answerTool(() => {
        const key = parseIdempotencyKey(idempotency_key);
        const input = toSubmitReportInput(parseWith(reportCreateBodySchema, body));
        return runIdempotent({
          actor,
          key,
          fingerprint: () => requestFingerprint({ method: "POST", route: "/v2/reports", params: {}, body }),
          run: (tx) => submitReportResult(actor, input, tx),
          runUnkeyed: () => submitReportResult(actor, input),
        });
      }),
  );
  server.registerTool(
    "list_polls",
    {
      title: "List polls",
      description: "Your active and paused polls (as GET /v2/polls).",
      inputSchema: checkinListArgs,
      annotations: READ,
    },
    (args) =>
      answerTool(() =>
        runList(checkinList("v2.polls", listCheckinWires), { actor, id: 0, query: parseWith(checkinListQuerySchema, toQuery(args)) }),
      ),
  );
  server.registerTool(
    "get_poll_results",
    {
      title: "Get poll results",
      description: "Results of a poll's latest broadcast, or of every broadcast in [since, until) (as GET /v2/polls/{id}/votes).",
      inputSchema: { poll_id: id("Poll"), since: date("From").optional(), until: date("Until").optional() },
      annotations: READ,
    },
    ({ poll_id, ...range }) =>
      answerTool(async () => {
        const { since, until } = parseWith(votesQuerySchema, toQuery(range));
        return runRead(
          { load: ({ actor, id }) => pollVotesWire(actor, id, { since, until }), wire: dataEnvelopeText },
          { actor, id: poll_id, query: undefined },
        );
      }),
  );
  server.registerTool(
    "vote",
    {
      title: "Vote on a poll",
      description:
        "Votes on the current broadcast of a poll you were asked (as POST /v2/polls/{id}/votes): choices by their text, or text.",
      inputSchema: { poll_id: id("Poll"), ...voteCreateBodySchema.shape, idempotency_key: idempotencyKey.optional() },
      annotations: WRITE,
    },
    ({ poll_id, idempotency_key, ...body }) =>
      answerTool(() => {
        const key = parseIdempotencyKey(idempotency_key);
        const input = toCastVoteInput(poll_id, parseWith(voteCreateBodySchema, body));
        const params = { pollId: String(poll_id) };
        return runIdempotent({
          actor,
          key,
          fingerprint: () => requestFingerprint({ method: "POST", route: "/v2/polls/{pollId}/votes", params, body }),
          run: async (tx) => ({ status: 200, body: { data: serializeVoteV2(await castVote(actor, input, tx)) } }),
        });
      }),
  );
  server.registerTool(
    "get_participation",
    {
      title: "Get participation",
      description:
        "Participation per run of a standup (standup_id) or per broadcast of a poll (poll_id), newest first " +
        "(as GET /v2/standups/{id}/participation and /v2/polls/{id}/participation).",
      inputSchema: {
        standup_id: id("Standup").optional(),
        poll_id: id("Poll").optional(),
        since: date("From (inclusive)").optional(),
        until: date("Until (inclusive)").optional(),
        limit: limit.optional(),
        cursor: cursor.optional(),
      },
      annotations: READ,
    },
    ({ standup_id, poll_id, ...rest }) =>
      answerTool(() => {
        if ((standup_id === undefined) === (poll_id === undefined))
          throw new InvalidParameterError("give exactly one of standup_id and poll_id");
        const query = parseWith(participationQuerySchema, toQuery(rest));
        const kind = standup_id !== undefined ? "standup" : "poll";
        return runList(participationList(kind), { actor, id: standup_id ?? (poll_id as number), query });
      }),
  );
  server.registerTool(
    "list_blockers",
    {
      title: "List blockers",
      description:
        "Answers to blocker questions that report a blocker, in the standups whose reports you can list, newest first " +
        "(anonymous ones without author).",
      inputSchema: {
        status: z.enum(["open", "resolved", "all"]).optional().describe("open (default): latest answer and not resolved"),
        standup_id: id("Standup").optional(),
        user_id: z.string().optional().describe("Only this author's (chat user id)"),
        since: date("Runs on or after (default 30 days ago)").optional(),
        limit: limit.optional(),
      },
      annotations: READ,
    },
    (args) =>
      answerTool(async () => {
        const { since } = parseWith(z.object({ since: zDate.optional() }), { since: args.since });
        const items = await listBlockers(actor, {
          status: args.status ?? "open",
          standupId: args.standup_id,
          userChatId: args.user_id,
          since,
          limit: args.limit ?? 100,
          scope: "api",
        });
        return json({ data: items.map(serializeBlocker) });
      }),
  );
}

/** One blocker in the v2 naming (snake case, ISO instants, local dates as YYYY-MM-DD; author null when anonymous). */
export function serializeBlocker(b: BlockerItem) {
  const day = (d: Date | null) => d?.toISOString().slice(0, 10) ?? null;
  return {
    answer_id: b.answerId,
    report_id: b.reportId,
    standup_id: b.standupId,
    standup_name: b.standupName,
    question: b.questionText,
    text: b.text,
    date: day(b.date),
    submitted_at: b.submittedAt.toISOString(),
    author: b.author && { id: b.author.chatId, realname: b.author.realname },
    blocked_since: day(b.blockedSince),
    blocked_days: b.blockedDays,
    latest: b.latest,
    resolved_at: b.resolvedAt?.toISOString() ?? null,
    resolved_by: b.resolvedBy,
  };
}
