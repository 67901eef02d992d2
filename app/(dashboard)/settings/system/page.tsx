import type { Metadata } from "next";
import { formatDateTime } from "@/components/format";
import { Backups, FailedChatDeliveries, FailedWebhookDeliveries, JobQueue, VersionAndDatabase } from "@/components/system/system-status";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { serviceProcessStatus } from "@/lib/domain/service-processes";
import { systemStatus } from "@/lib/runtime/system-status";
import { requireUser } from "../../load";
import { retryChatDeliveryAction, retryWebhookDeliveryAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "System" };

const PROCESS_LABEL = { web: "Web server", worker: "Job worker" } as const;

/**
 * Settings → System (team admins): version, database, migrations, job queue, failed deliveries with
 * Retry, backups and the restore command (issue 44); the service's processes, their restarts by the
 * supervisor and the live job workers (issue 40).
 */
export default async function SystemPage() {
  const user = await requireUser();
  if (!user.isAdmin) {
    return (
      <>
        <PageHeader title="System" description="The service's processes." />
        <EmptyState title="Team admins only">Ask a team admin to look at the state of the service.</EmptyState>
      </>
    );
  }
  const [{ processes, workers }, status] = await Promise.all([serviceProcessStatus(user), systemStatus(user)]);
  return (
    <>
      <PageHeader
        title="System"
        description="npm start runs the web server and the job worker as supervised processes: one that dies is started again within seconds, without stopping the database."
      />
      <div className="space-y-6">
        <VersionAndDatabase s={status} />
        <FailedChatDeliveries s={status} retry={retryChatDeliveryAction} />
        <FailedWebhookDeliveries s={status} retry={retryWebhookDeliveryAction} />
        <JobQueue s={status} />
        <Backups s={status} />
        <Card title="Service processes">
          <table className="w-full text-left text-sm" data-testid="service-processes">
            <thead>
              <tr className="text-slate-600">
                <th className="py-1 pr-4 font-medium">Process</th>
                <th className="py-1 pr-4 font-medium">Restarts (24 h)</th>
                <th className="py-1 pr-4 font-medium">Last restart</th>
                <th className="py-1 font-medium">Reason</th>
              </tr>
            </thead>
            <tbody>
              {processes.map((p) => (
                <tr key={p.process} className="border-t border-slate-200">
                  <td className="py-1 pr-4">{PROCESS_LABEL[p.process]}</td>
                  <td className="py-1 pr-4">
                    <Badge tone={p.restarts24h === 0 ? "green" : "amber"}>{p.restarts24h}</Badge>
                  </td>
                  <td className="py-1 pr-4">{p.last ? formatDateTime(p.last.at) : "never"}</td>
                  <td className="py-1 font-mono text-xs">{p.last?.reason ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card
          title="Job workers"
          empty={workers.length === 0 && "No job worker alive"}
          emptyDetail="No job worker has reported in the last minute."
        >
          <ul className="space-y-1 text-sm">
            {workers.map((w) => (
              <li key={w.workerId} className="font-mono text-xs">
                {w.workerId} · pid {w.pid} on {w.host} · since {formatDateTime(w.startedAt)} · last heartbeat {formatDateTime(w.beatAt)}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </>
  );
}
