/**
 * The authenticated caller every domain function receives: an API key's user or a dashboard
 * session's user. All data access is scoped to `teamId` (spec §5).
 */
export type Actor = {
  teamId: number;
  /** Numeric user id (legacy v1 places). */
  userId: number;
  /** Chat-platform-style user id, e.g. U0123ABCD (v2 places). */
  userChatId: string;
  isAdmin: boolean;
  /** Team role (admin | manager | member); absent in older callers: then `isAdmin` decides admin/member. */
  role?: "admin" | "manager" | "member";
  /** Set when the caller authenticated with an API key. */
  apiKeyId?: number;
};
