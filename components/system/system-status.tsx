/**
 * The sections of Settings → System (issue 44) drawn from lib/runtime/system-status.ts: version,
 * database and migrations, job queue, failed deliveries with their Retry buttons, backups and the
 * restore command. Server components; the retries are server actions passed in.
 */
import type { ReactNode } from "react";
import { formatDateTime } from "@/components/format";
import { buttonClass } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { formatBytes } from "@/lib/runtime/backup";
import type { SystemStatus } from "@/lib/runtime/system-status";

type RetryAction = (form: FormData) => Promise<void>;

/** "3 d 4 h", "2 h 5 min", "42 s". */
export function formatUptime(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min`;
  return `${seconds} s`;
}

function Facts({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-sm" data-testid={testId}>
      {children}
    </dl>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

/** Version, commit and uptime; database size, WAL archiving and migrations. */
export function VersionAndDatabase({ s }: { s: SystemStatus }) {
  const m = s.migrations;
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <Card title="Version">
        <Facts testId="system-version">
          <Fact label="Version">{s.version}</Fact>
          <Fact label="Commit">{s.commit ? <code className="font-mono text-xs">{s.commit}</code> : "unknown"}</Fact>
          <Fact label="Web server uptime">{formatUptime(s.uptimeSeconds)}</Fact>
        </Facts>
      </Card>
      <Card title="Database">
        <Facts testId="system-database">
          <Fact label="Size">{formatBytes(s.database.bytes)}</Fact>
          <Fact label="WAL archiving">{s.database.walArchiving ? <Badge tone="green">on</Badge> : <Badge tone="slate">off</Badge>}</Fact>
          <Fact label="Migrations applied">{m.applied}</Fact>
          <Fact label="Latest migration">{m.latest ? <code className="font-mono text-xs">{m.latest}</code> : "none"}</Fact>
          <Fact label="Pending migrations">
            {m.pending.length === 0 ? <Badge tone="green">none</Badge> : <Badge tone="red">{m.pending.join(", ")}</Badge>}
          </Fact>
          {m.unknown.length > 0 && (
            <Fact label="Unknown to this version">
              <Badge tone="red">{m.unknown.join(", ")}</Badge>
            </Fact>
          )}
        </Facts>
      </Card>
    </div>
  );
}

/** Worker heartbeat summary and graphile-worker's jobs by task. */
export function JobQueue({ s }: { s: SystemStatus }) {
  const w = s.workers;
  return (
    <Card title="Job queue">
      <p className="mb-3 text-sm" data-testid="worker-heartbeat">
        Worker heartbeat:{" "}
        {w.lastBeatAt ? (
          <>
            <Badge tone={w.fresh > 0 ? "green" : "red"}>{w.fresh > 0 ? "fresh" : "stale"}</Badge> last {formatDateTime(w.lastBeatAt)} (
            {w.fresh} of {w.total} worker{w.total === 1 ? "" : "s"} alive)
          </>
        ) : (
          <Badge tone="amber">no worker has reported</Badge>
        )}
        {s.jobOutbox > 0 && <span className="ml-2 text-slate-600">· {s.jobOutbox} job(s) waiting to be handed to the worker</span>}
      </p>
      {s.jobs.length === 0 ? (
        <p className="text-sm text-slate-600">No jobs queued, running or failed.</p>
      ) : (
        <table className="w-full text-left text-sm" data-testid="job-queue">
          <thead>
            <tr className="text-slate-600">
              <th className="py-1 pr-4 font-medium">Task</th>
              <th className="py-1 pr-4 font-medium">Queued</th>
              <th className="py-1 pr-4 font-medium">Running</th>
              <th className="py-1 font-medium">Failed</th>
            </tr>
          </thead>
          <tbody>
            {s.jobs.map((j) => (
              <tr key={j.task} className="border-t border-slate-200">
                <td className="py-1 pr-4 font-mono text-xs">{j.task}</td>
                <td className="py-1 pr-4">{j.queued}</td>
                <td className="py-1 pr-4">{j.running}</td>
                <td className="py-1">{j.failed > 0 ? <Badge tone="red">{j.failed}</Badge> : 0}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

function RetryButton({ action, name, id, label }: { action: RetryAction; name: string; id: number; label: string }) {
  return (
    <form action={action}>
      <input type="hidden" name={name} value={id} />
      <button type="submit" className={buttonClass("secondary")} aria-label={label}>
        Retry
      </button>
    </form>
  );
}

function more(count: number, shown: number): ReactNode {
  return count > shown ? (
    <p className="mt-2 text-xs text-slate-600">
      Showing the newest {shown} of {count}.
    </p>
  ) : null;
}

/** A card listing failed deliveries (`count` in all, the newest as `children` items), or its empty state. */
function FailedList({
  title,
  count,
  shown,
  empty,
  emptyDetail,
  testId,
  children,
}: {
  title: string;
  count: number;
  shown: number;
  empty: string;
  emptyDetail: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card title={title} empty={count === 0 && empty} emptyDetail={emptyDetail}>
      <ul className="space-y-2 text-sm" data-testid={testId}>
        {children}
      </ul>
      {more(count, shown)}
    </Card>
  );
}

/** One failed delivery: what it was (`children`), its error, and `action` (Retry) on the right. */
function FailedItem({ testId, error, action, children }: { testId: string; error: string; action: ReactNode; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 border-t border-slate-200 pt-2" data-testid={testId}>
      <span>
        {children}
        <span className="block text-xs text-red-800">{error}</span>
      </span>
      {action}
    </li>
  );
}

/** The team's failed chat deliveries of the last 24 h, each with Retry. */
export function FailedChatDeliveries({ s, retry }: { s: SystemStatus; retry: RetryAction }) {
  const { count, rows } = s.failedChat;
  return (
    <FailedList
      title="Failed chat deliveries (last 24 h)"
      count={count}
      shown={rows.length}
      empty="No failed chat deliveries"
      emptyDetail="Every chat message of the last 24 hours was delivered or is still being sent."
      testId="failed-chat-deliveries"
    >
      {rows.map((m) => (
        <FailedItem
          key={m.id}
          testId="failed-chat"
          error={m.error ?? "The chat platform refused the message."}
          action={<RetryButton action={retry} name="messageId" id={m.id} label={`Retry chat message ${m.id}`} />}
        >
          <span className="font-medium">{m.where}</span>
          {m.checkinName && <span className="text-slate-600"> · {m.checkinName}</span>}
          <span className="text-slate-600"> · failed {formatDateTime(m.failedAt)}</span>
        </FailedItem>
      ))}
    </FailedList>
  );
}

/** The team's failed webhook deliveries of the last 24 h, each with Retry (not for a disabled endpoint). */
export function FailedWebhookDeliveries({ s, retry }: { s: SystemStatus; retry: RetryAction }) {
  const { count, rows } = s.failedWebhooks;
  return (
    <FailedList
      title="Failed webhook deliveries (last 24 h)"
      count={count}
      shown={rows.length}
      empty="No failed webhook deliveries"
      emptyDetail="Every webhook event of the last 24 hours was delivered or is still being retried."
      testId="failed-webhook-deliveries"
    >
      {rows.map((d) => (
        <FailedItem
          key={d.id}
          testId="failed-webhook"
          error={d.error ?? "failed"}
          action={
            d.endpointDisabled ? (
              <span className="text-xs text-slate-600">Endpoint disabled: enable it under Settings → Webhooks to retry.</span>
            ) : (
              <RetryButton action={retry} name="deliveryId" id={d.id} label={`Retry webhook delivery ${d.id}`} />
            )
          }
        >
          <span className="font-mono text-xs">{d.endpointUrl}</span>
          <span className="text-slate-600">
            {" "}
            · {d.eventType} · {d.attempts} attempt{d.attempts === 1 ? "" : "s"} · failed {formatDateTime(d.failedAt)}
          </span>
        </FailedItem>
      ))}
    </FailedList>
  );
}

/** The last base backup, the backup folder's size and the restore command. */
export function Backups({ s }: { s: SystemStatus }) {
  const b = s.backups;
  return (
    <Card title="Backups">
      <Facts testId="system-backups">
        <Fact label="Last base backup">
          {b.last ? (
            `${formatDateTime(b.last.finishedAt)} · ${formatBytes(b.last.bytes)} in ${b.last.seconds.toFixed(1)} s`
          ) : (
            <Badge tone="amber">none yet</Badge>
          )}
        </Fact>
        <Fact label="Base backups kept">{b.count}</Fact>
        <Fact label="Backup folder">{`${b.dir} (${formatBytes(b.totalBytes)}, of which WAL archive ${formatBytes(b.walBytes)})`}</Fact>
      </Facts>
      <p className="mt-3 text-sm text-slate-700">
        {s.database.walArchiving
          ? "Restore to a point in time (stop the service first; the current data folder is kept aside):"
          : "WAL archiving is off (an external DATABASE_URL): back that server up with its own tooling. For the embedded database, restore with:"}
      </p>
      <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-2 text-xs text-slate-50" data-testid="restore-command">
        <code>{s.restoreCommand}</code>
      </pre>
    </Card>
  );
}
