import type { Metadata } from "next";
import { CreateKeyForm } from "@/components/api-keys/create-key-form";
import { formatDateTime } from "@/components/format";
import { Button } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { Td } from "@/components/ui/table";
import { TableCard } from "@/components/ui/table-card";
import { listApiKeys } from "@/lib/domain/api-key-admin";
import { requireUser } from "../../load";
import { createKeyAction, revokeKeyAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "API keys" };

/** Settings → API keys: create (shown once), list, revoke. */
export default async function ApiKeysPage() {
  const user = await requireUser();
  const keys = await listApiKeys(user);
  return (
    <>
      <PageHeader title="API keys" description="Keys authenticate calls to the public API (/v1 and /v2) as you, scoped to your team." />
      <div className="space-y-6">
        <Card title="Create a key">
          <CreateKeyForm action={createKeyAction} />
        </Card>
        <TableCard
          title={user.isAdmin ? "Keys of your team" : "Your keys"}
          empty="No API keys yet"
          emptyDetail="Create one above to call the API."
          caption="API keys"
          columns={[
            "Name",
            "Prefix",
            user.isAdmin && "Owner",
            "Created",
            "Last used",
            { key: "actions", label: <span className="sr-only">Actions</span> },
          ]}
          className="min-w-[36rem] text-sm"
          wrapperClassName="overflow-x-auto"
          rows={keys}
          row={(k) => (
            <tr key={k.id} data-testid="api-key-row">
              <Td className="font-medium">{k.name}</Td>
              <Td className="font-mono">{k.prefix}…</Td>
              {user.isAdmin && <Td>{k.owner.realname}</Td>}
              <Td>{formatDateTime(k.createdAt, user.timezone)}</Td>
              <Td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt, user.timezone) : "Never"}</Td>
              <Td last className="text-right">
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
              </Td>
            </tr>
          )}
        />
      </div>
    </>
  );
}
