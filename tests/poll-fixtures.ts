/**
 * Poll answers for the tests that read them back (GET /v2/polls/{id}/votes, the OpenAPI check):
 * votes and categorizations written straight to the database, as the vote and categorize paths
 * leave them.
 */
import { db } from "@/lib/db";

type TestPoll = { team_id: number; questions: Array<{ id: number }> };

/**
 * Creates the vote of `user` on question `q` (index into `poll.questions`) in the occurrence
 * `occurrenceId`: a multiple-choice `choice`, or an open-ended `text` with its `categories`
 * (absent ones are stored as null / an empty list).
 */
export async function createTestVote(
  poll: TestPoll,
  occurrenceId: number,
  user: { id: number },
  q: number,
  v: { choice?: string; text?: string; categories?: string[] },
): Promise<void> {
  await db.vote.create({
    data: {
      team_id: poll.team_id,
      occurrence_id: occurrenceId,
      question_id: poll.questions[q].id,
      user_id: user.id,
      choice: v.choice ?? null,
      text: v.text ?? null,
      categories: v.categories ?? [],
    },
  });
}

/**
 * Creates the completed categorization of question `q` (index into `poll.questions`) in the
 * occurrence `occurrenceId`, with its categories (name and number of answers).
 */
export async function createTestCategorization(
  poll: TestPoll,
  occurrenceId: number,
  q: number,
  categories: Array<{ name: string; count: number }>,
): Promise<void> {
  await db.categorization.create({
    data: { team_id: poll.team_id, occurrence_id: occurrenceId, question_id: poll.questions[q].id, status: "completed", categories },
  });
}
