-- The standup page lists a standup's messages one page at a time, newest first (issue 49):
-- WHERE checkin_id = $1 AND id < $cursor ORDER BY id DESC LIMIT 21 reads one index range.
-- CreateIndex
CREATE INDEX "chat_messages_checkin_id_id_idx" ON "chat_messages"("checkin_id", "id");
