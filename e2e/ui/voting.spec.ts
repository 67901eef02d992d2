import { expect, test } from "@playwright/test";
import { BASE_URL, demoMemberPage, expectAccessibleScreenshot, expectNoSeriousA11yViolations, startNewPoll } from "./helpers";

test("an admin creates a poll, a member votes from My check-ins and changes the vote, the creator sees live results", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);

  // The admin creates a multiple-choice + open-ended poll in #general (every member is there).
  const name = await startNewPoll(page, "E2E vote", "Where should we have lunch?");
  await page.getByLabel("Choices (one per line, at least two)").fill("Pizza");
  await page.getByRole("button", { name: "Add a question" }).click();
  await page.getByLabel("Question 2", { exact: true }).fill("Anything else for the team lunch?");
  await page.getByLabel("Type of question 2").selectOption("open_ended");
  await page.getByLabel("Channel", { exact: true }).selectOption({ label: "#general" });
  await page.getByLabel("Open for (minutes, optional)").fill("2");
  await page.getByLabel("Unit").selectOption("hours");
  await expect(page.getByLabel("Open for (hours, optional)")).toHaveValue("2");
  await page.getByLabel("Share the results with recipients after the poll closes").check();
  // One choice only: the domain's message shows next to the choices; everything typed stays.
  await page.getByRole("button", { name: "Create poll" }).click();
  await expect(page.locator("#q0-choices-error")).toHaveText("At least 2 choices are required");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue(name);
  await expect(page.getByLabel("Question 2", { exact: true })).toHaveValue("Anything else for the team lunch?");
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel("Choices (one per line, at least two)").fill("Pizza\nSushi\nTacos");
  await page.getByRole("button", { name: "Create poll" }).click();
  await page.waitForURL(/\/polls\/\d+$/);
  const pollUrl = page.url();
  const pollId = Number(/\/polls\/(\d+)$/.exec(pollUrl)?.[1]);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByTestId("poll-status")).toContainText("0 of");

  // A member finds it in My check-ins, not voted yet.
  const { context: memberContext, page: member } = await demoMemberPage(browser);
  await member.goto(`${BASE_URL}/my-checkins`);
  const card = member.getByTestId("my-poll").filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("Not voted yet");
  await expect(card).toContainText("Closes");
  await card.getByRole("link", { name: `Vote on ${name}` }).click();
  await member.waitForURL(new RegExp(`/polls/${pollId}/vote$`));

  // Nothing chosen: the error shows next to the question.
  await member.getByRole("button", { name: "Vote", exact: true }).click();
  await expect(member.getByText("Choose an option.")).toBeVisible();
  await member.getByRole("radio", { name: "Sushi" }).check();
  await member.getByLabel("Anything else for the team lunch?").fill("More vegetables please");
  await member.getByRole("button", { name: "Vote", exact: true }).click();
  await expect(member.getByText("Your vote is saved.")).toBeVisible();
  await expectAccessibleScreenshot(member, "poll-vote");

  // Changing the vote replaces it.
  await member.reload();
  await expect(member.getByRole("radio", { name: "Sushi" })).toBeChecked();
  await member.getByRole("radio", { name: "Tacos" }).check();
  await member.getByRole("button", { name: "Change my vote" }).click();
  await expect(member.getByText("Your vote is saved.")).toBeVisible();
  await member.goto(`${BASE_URL}/my-checkins`);
  await expect(member.getByTestId("my-poll").filter({ hasText: name })).toContainText("Voted");
  await expectNoSeriousA11yViolations(member);

  // The member's poll page links to the vote instead of "Not found".
  await member.goto(pollUrl);
  await expect(member.getByRole("link", { name: "Change my vote" })).toBeVisible();
  await memberContext.close();

  // The creator sees the live results: one vote, for Tacos, and the open-ended answer.
  await page.reload();
  await expect(page.getByTestId("poll-status")).toContainText("1 of");
  const question = page.getByTestId("poll-question").filter({ hasText: "Where should we have lunch?" });
  const rows = question.getByTestId("votes-table").locator("tbody tr");
  await expect(rows.filter({ hasText: "Tacos" }).locator("td").nth(1)).toHaveText("1");
  await expect(rows.filter({ hasText: "Sushi" }).locator("td").nth(1)).toHaveText("0");
  await expect(page.getByTestId("poll-question").filter({ hasText: "Anything else" })).toContainText("More vegetables please");

  // Ask now re-asks the recipients who have not voted.
  page.once("dialog", (d) => d.accept());
  await page.getByRole("button", { name: "Ask now" }).click();
  await expect(page.getByTestId("ask-now")).toContainText(/Asked \d+ recipients? who had not voted yet/);
  await expectAccessibleScreenshot(page, "poll-live-results");
});
