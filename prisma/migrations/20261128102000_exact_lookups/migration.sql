-- Exact lookups by e-mail address and channel name (issue 40 item 5, lib/domain/exact-lookup.ts).
-- Sign-in, password reset, invitations, member e-mails and `broadcast_channel` names compare
-- `lower(column) = lower($1)` instead of Prisma's `mode: "insensitive"` equality (an unescaped
-- ILIKE, where `%` matched any address). These expression indexes serve that comparison; Prisma's
-- schema cannot express them, the User and Channel models name them in a comment. Not unique:
-- the existing unique keys (team_id, email) and (team_id, name) stay as they are, and rows that
-- differ only in case (possible before) must not make this migration fail.
CREATE INDEX "users_lower_email_idx" ON "users" (lower("email"));
CREATE INDEX "channels_team_id_lower_name_idx" ON "channels" ("team_id", lower("name"));
