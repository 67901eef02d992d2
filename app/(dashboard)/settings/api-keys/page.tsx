import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CreateKeyForm } from "@/components/api-keys/create-key-form";
import { formatDateTime } from "@/components/format";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { getSessionUser } from "@/lib/auth/session";
import { listApiKeys } from "@/lib/domain/api-key-admin";
import { createKeyAction, revokeKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

/** Settings → API keys: create (shown once), list, revoke. */
export default async function ApiKeysPage() {
  const user = await getSessionUser();
  if (!user) redirect("/sign-in");
  const keys = await listApiKeys(user);
  return (
    <>
      <PageHeader title="API keys" description="Keys authenticate calls to the public API (/v1 and /v2) as you, scoped to your team." />
      <div className="space-y-6">
        <Card title="Create a key">
          <CreateKeyForm action={createKeyAction} />
        </Card>
        <Card title={user.isAdmin ? "Keys of your team" : "Your keys"}>
          {keys.length === 0 ? (
            <EmptyState title="No API keys yet">Create one above to call the API.</EmptyState>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full min-w-[36rem] text-left text-sm">
                <caption className="sr-only">API keys</caption>
                <thead className="border-b border-slate-200 text-xs uppercase text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      Name
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Prefix
                    </th>
                    {user.isAdmin && (
                      <th scope="col" className="py-2 pr-3">
                        Owner
                      </th>
                    )}
                    <th scope="col" className="py-2 pr-3">
                      Created
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      Last used
                    </th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {keys.map((k) => (
                    <tr key={k.id} data-testid="api-key-row">
                      <td className="py-2 pr-3 font-medium">{k.name}</td>
                      <td className="py-2 pr-3 font-mono">{k.prefix}…</td>
                      {user.isAdmin && <td className="py-2 pr-3">{k.owner.realname}</td>}
                      <td className="py-2 pr-3">{formatDateTime(k.createdAt, user.timezone)}</td>
                      <td className="py-2 pr-3">{k.lastUsedAt ? formatDateTime(k.lastUsedAt, user.timezone) : "Never"}</td>
                      <td className="py-2 text-right">
                        {k.revokedAt ? (
                          <Badge tone="red">Revoked</Badge>
                        ) : (
                          <form action={revokeKeyAction}>
                            <input type="hidden" name="id" value={k.id} />
                            <Button type="submit" variant="danger" aria-label={`Revoke key ${k.name} (${k.prefix})`}>
                              Revoke
                            </Button>
                          </form>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
