import { expect, test } from "@playwright/test";
import { BASE_URL, demoMemberPage, startNewPoll } from "./helpers";

/** Issue 41 item 10: polls have a lifecycle (edit, close now, pause, delete) and recipients find them under Polls. */
test("the creator edits, closes, pauses and deletes a poll; a recipient finds it under Polls; results show shares", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const name = await startNewPoll(page, "E2E lifecycle", "Tea or coffee?");
  await page.getByLabel("Choices (one per line, at least two)").fill("Tea\nCoffee");
  await page.getByLabel("Channel", { exact: true }).selectOption({ label: "#general" });
  await page.getByLabel("Open for (minutes, optional)").fill("60");
  await page.getByRole("button", { name: "Create poll" }).click();
  await page.waitForURL(/\/polls\/\d+$/);
  const pollUrl = page.url();

  // Edit: the name and the question while nobody voted.
  await page.getByText("Edit", { exact: true }).click();
  const edit = page.getByTestId("edit-poll");
  await edit.getByLabel("Name", { exact: true }).fill(`${name} (edited)`);
  await edit.getByLabel("Question", { exact: true }).fill("Tea or coffee this afternoon?");
  await edit.getByRole("button", { name: "Save poll" }).click();
  await expect(page.getByText("Poll saved.")).toBeVisible();
  await expect(page.getByRole("heading", { name: `${name} (edited)`, level: 1 })).toBeVisible();
  await expect(page.getByTestId("poll-question").filter({ hasText: "Tea or coffee this afternoon?" })).toHaveCount(1);

  // A recipient votes, and finds the poll under Polls ("asked in"), not only in My check-ins.
  const { context: memberContext, page: member } = await demoMemberPage(browser);
  await member.goto(`${BASE_URL}/polls`);
  const asked = member.getByRole("list", { name: "Polls you were asked in" }).getByTestId("poll-card").filter({ hasText: name });
  await expect(asked).toHaveCount(1);
  await expect(asked).toContainText("Open");
  await member.goto(`${pollUrl}/vote`);
  await member.getByRole("radio", { name: "Coffee" }).check();
  await member.getByRole("button", { name: "Vote", exact: true }).click();
  await expect(member.getByText("Your vote is saved.")).toBeVisible();

  // Results show percentages; the question can no longer be reworded.
  await page.reload();
  const rows = page.getByTestId("poll-question").first().getByTestId("votes-table").locator("tbody tr");
  await expect(rows.filter({ hasText: "Coffee" })).toContainText("100%");
  await expect(rows.filter({ hasText: "Tea" })).toContainText("0%");
  await page.getByText("Edit", { exact: true }).click();
  await expect(page.getByTestId("edit-poll").getByLabel("Question", { exact: true })).toHaveCount(0);

  // Close now (confirmed): the poll reads Closed, here and for the recipient.
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Close now" }).click();
  await expect(page.getByTestId("poll-state")).toHaveText("Closed");
  await expect(page.getByTestId("poll-status")).toContainText("Closed");
  await member.goto(`${BASE_URL}/polls`);
  await expect(asked).toContainText("Closed");
  await memberContext.close();

  // Pause / resume.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByTestId("poll-state")).toHaveText("Paused");
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByTestId("poll-state")).toHaveText("Closed");

  // Delete asks first: dismissing keeps it; accepting removes it and says so.
  page.once("dialog", (d) => d.dismiss());
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: `${name} (edited)`, level: 1 })).toBeVisible();
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Delete" }).click();
  await page.waitForURL(/\/polls\?deleted=1$/);
  await expect(page.getByText("Poll deleted.")).toBeVisible();
  await expect(page.getByTestId("poll-card").filter({ hasText: name })).toHaveCount(0);
  await page.goto(pollUrl);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});
