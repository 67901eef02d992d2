/**
 * What the demo people write: question sets of the demo standups and polls, and small phrase
 * generators that turn the seeded PRNG into plausible answers. Pure functions of the PRNG.
 */
import type { Rng } from "@/lib/seed/random";

/** A planned question; `answer` writes one answer to it (text of the answer). */
export type QuestionPlan = {
  text: string;
  answer_type: "text" | "multiple_choice" | "open_ended";
  choices: string[];
  color: string;
  answer?: (ctx: AnswerContext) => string;
  /** A "blocker" question: its non-empty, non-"no" answers are listed on the Blockers page. */
  is_blocker?: boolean;
};

/** What an answer generator may use: the PRNG, the author's first name and a colleague's. */
export type AnswerContext = { rng: Rng; colleague: string; weekday: string };

const WORK_ITEMS = [
  "the gripper calibration service",
  "the fleet telemetry dashboard",
  "the firmware OTA pipeline",
  "the path-planning module",
  "the flaky integration tests",
  "the Postgres 17 upgrade",
  "the public API rate limiter",
  "SSO for enterprise customers",
  "the arm controller simulator",
  "CI build times",
  "the 4.2 mobile release",
  "the search indexing job",
  "the warehouse map editor",
  "battery health alerts",
  "the onboarding checklist",
  "the billing webhooks",
  "LiDAR point-cloud compression",
  "the docs site migration",
  "error budgets for the robot API",
  "the customer health report",
];
const DONE_VERBS = [
  "Finished",
  "Shipped",
  "Reviewed PRs for",
  "Debugged",
  "Wrote tests for",
  "Refactored",
  "Paired on",
  "Investigated",
  "Deployed",
  "Documented",
];
const TODO_VERBS = [
  "Continue with",
  "Start on",
  "Wrap up",
  "Write the design doc for",
  "Review",
  "Pair with {colleague} on",
  "Benchmark",
  "Polish",
  "Demo",
  "Plan the rollout of",
];
const NO_BLOCKERS = ["No blockers.", "None 👍", "Nothing right now.", "No", "All good!", "Nope, smooth sailing.", "-"];
const BLOCKERS = [
  "Waiting on {colleague} for a review of {item}.",
  "Staging is flaky again, which slows down testing {item}.",
  "Need a decision from product on {item}.",
  "Blocked on access to the test robot cell.",
  "The vendor API for {item} keeps timing out.",
];

function fill(template: string, ctx: AnswerContext, item: string): string {
  return template.replaceAll("{colleague}", ctx.colleague).replaceAll("{item}", item);
}

function didAnswer(ctx: AnswerContext): string {
  const item = ctx.rng.pick(WORK_ITEMS);
  const first = `${ctx.rng.pick(DONE_VERBS)} ${item}.`;
  if (!ctx.rng.chance(0.45)) return first;
  const second = ctx.rng.pick([
    "Also joined the planning session.",
    `Helped ${ctx.colleague} with a deploy.`,
    "Cleared my review queue.",
    "Spent some time on support tickets.",
  ]);
  return `${first} ${second}`;
}

function todoAnswer(ctx: AnswerContext): string {
  const item = ctx.rng.pick(WORK_ITEMS);
  const verb = fill(ctx.rng.pick(TODO_VERBS), ctx, item);
  return ctx.weekday === "Fri" && ctx.rng.chance(0.3) ? `${verb} ${item}, then a quiet Friday of cleanup.` : `${verb} ${item}.`;
}

function blockerAnswer(ctx: AnswerContext): string {
  return ctx.rng.chance(0.78) ? ctx.rng.pick(NO_BLOCKERS) : fill(ctx.rng.pick(BLOCKERS), ctx, ctx.rng.pick(WORK_ITEMS));
}

const MOODS = ["🚀 Great", "🙂 Good", "😐 Okay", "😩 Stressed"];

/** Questions of the daily engineering standup (three text questions and one multiple-choice). */
export function dailyQuestions(): QuestionPlan[] {
  return [
    { text: "What did you work on yesterday?", answer_type: "text", choices: [], color: "2A9D8F", answer: didAnswer },
    { text: "What are you working on today?", answer_type: "text", choices: [], color: "E9C46A", answer: todoAnswer },
    {
      text: "Anything blocking you?",
      answer_type: "text",
      choices: [],
      color: "E76F51",
      answer: blockerAnswer,
      is_blocker: true,
    },
    {
      text: "How are you feeling today?",
      answer_type: "multiple_choice",
      choices: MOODS,
      color: "8AB17D",
      answer: (ctx) => ctx.rng.pick([MOODS[0], MOODS[1], MOODS[1], MOODS[1], MOODS[2], MOODS[2], MOODS[3]] as string[]),
    },
  ];
}

/** Questions of the weekly product sync. */
export function weeklyQuestions(): QuestionPlan[] {
  return [
    {
      text: "What were your top wins last week?",
      answer_type: "text",
      choices: [],
      color: "264653",
      answer: (ctx) =>
        `${ctx.rng.pick(DONE_VERBS)} ${ctx.rng.pick(WORK_ITEMS)}; ${ctx.rng.pick(["customer feedback was positive", "metrics look good", "on time", "ahead of plan"])}.`,
    },
    {
      text: "What are your priorities this week?",
      answer_type: "text",
      choices: [],
      color: "2A9D8F",
      answer: (ctx) =>
        `1) ${ctx.rng.pick(TODO_VERBS).replace("{colleague}", ctx.colleague)} ${ctx.rng.pick(WORK_ITEMS)} 2) ${ctx.rng.pick(["customer interviews", "roadmap review", "release notes", "pricing page update", "Q3 planning"])}`,
    },
    {
      text: "Any risks or dependencies the team should know about?",
      answer_type: "text",
      choices: [],
      color: "F4A261",
      answer: (ctx) =>
        ctx.rng.chance(0.6) ? ctx.rng.pick(NO_BLOCKERS) : `Depends on ${ctx.colleague} finishing ${ctx.rng.pick(WORK_ITEMS)}.`,
    },
  ];
}

/** Questions of the anonymous weekly pulse. */
export function pulseQuestions(): QuestionPlan[] {
  return [
    {
      text: "What went well this week?",
      answer_type: "text",
      choices: [],
      color: "8AB17D",
      answer: (ctx) =>
        ctx.rng.pick([
          "Great collaboration across teams.",
          "The release went out smoothly.",
          "Fewer meetings, more focus time.",
          "Good support from my lead.",
          "We fixed a long-standing bug.",
          "Demo day was fun!",
        ]),
    },
    {
      text: "What could have gone better?",
      answer_type: "text",
      choices: [],
      color: "E76F51",
      answer: (ctx) =>
        ctx.rng.pick([
          "Too many context switches.",
          "Requirements changed late.",
          "On-call was rough.",
          "Code reviews took too long.",
          "Nothing major.",
          "Unclear priorities at the start of the week.",
        ]),
    },
    {
      text: "Anything you want leadership to know?",
      answer_type: "text",
      choices: [],
      color: "264653",
      answer: (ctx) =>
        ctx.rng.pick([
          "No.",
          "We need more test hardware.",
          "Please keep Fridays meeting-free.",
          "Hiring for QA would help a lot.",
          "Thanks for the transparency in the all-hands.",
          "-",
        ]),
    },
  ];
}

/** Questions of the confidential 1:1 check-in. */
export function oneOnOneQuestions(): QuestionPlan[] {
  return [
    {
      text: "How do you feel about your workload?",
      answer_type: "text",
      choices: [],
      color: "2A9D8F",
      answer: (ctx) =>
        ctx.rng.pick([
          "Manageable.",
          "A bit too much this week.",
          "Comfortable, could take on more.",
          "Heavy because of on-call.",
          "Balanced.",
        ]),
    },
    {
      text: "What support do you need from me?",
      answer_type: "text",
      choices: [],
      color: "E9C46A",
      answer: (ctx) =>
        ctx.rng.pick([
          "Nothing right now.",
          `Help aligning with ${ctx.colleague} on priorities.`,
          "Feedback on my promotion doc.",
          "More context on the roadmap.",
          "Time for a deep-dive on the architecture.",
        ]),
    },
    {
      text: "Anything else on your mind?",
      answer_type: "text",
      choices: [],
      color: "F4A261",
      answer: (ctx) =>
        ctx.rng.pick([
          "No.",
          "Planning some time off next month.",
          "Would love to mentor the intern.",
          "Curious about the conference budget.",
          "-",
        ]),
    },
  ];
}

/** Questions of the paused design critique prep. */
export function designQuestions(): QuestionPlan[] {
  return [
    {
      text: "What will you present at the critique?",
      answer_type: "text",
      choices: [],
      color: "9B5DE5",
      answer: (ctx) =>
        `Iterations on ${ctx.rng.pick(["the robot status screen", "the onboarding flow", "the map editor toolbar", "the alerts inbox", "the settings redesign"])}.`,
    },
    {
      text: "What feedback are you looking for?",
      answer_type: "text",
      choices: [],
      color: "F15BB5",
      answer: (ctx) =>
        ctx.rng.pick([
          "Information hierarchy.",
          "Is the empty state clear?",
          "Colour contrast and accessibility.",
          "Copy and tone.",
          "Interaction details on mobile.",
        ]),
    },
  ];
}

/** Questions of the draft OKR check-in (never run). */
export function okrQuestions(): QuestionPlan[] {
  return [
    {
      text: "How confident are you in hitting your key results?",
      answer_type: "multiple_choice",
      choices: ["On track", "At risk", "Off track"],
      color: "EEEEEE",
    },
    { text: "What would raise your confidence?", answer_type: "text", choices: [], color: "EEEEEE" },
  ];
}

/** Questions of the smaller second team's daily standup. */
export function globexQuestions(): QuestionPlan[] {
  return [
    { text: "What did you get done yesterday?", answer_type: "text", choices: [], color: "2A9D8F", answer: didAnswer },
    { text: "What's the plan for today?", answer_type: "text", choices: [], color: "E9C46A", answer: todoAnswer },
    { text: "Any blockers?", answer_type: "text", choices: [], color: "E76F51", answer: blockerAnswer, is_blocker: true },
  ];
}

/** Choices of the recurring lunch poll. */
export const LUNCH_CHOICES = ["Pizza Napoli", "Sushi Bar Kyoto", "Taco Truck", "Thai Kitchen", "Green Bowl Salads"];

/** Open-ended suggestions for the process poll, each with the categories a categorizer would assign. */
export const PROCESS_SUGGESTIONS: { text: string; categories: string[] }[] = [
  { text: "Fewer recurring meetings, more async updates.", categories: ["Meetings", "Communication"] },
  { text: "Code reviews should be picked up within a day.", categories: ["Code review"] },
  { text: "Keep the runbooks up to date after incidents.", categories: ["Documentation"] },
  { text: "Faster CI — builds take 25 minutes.", categories: ["Tooling"] },
  { text: "Clearer acceptance criteria before sprint start.", categories: ["Planning"] },
  { text: "More automated tests for the firmware.", categories: ["Testing", "Tooling"] },
  { text: "Share the roadmap changes earlier.", categories: ["Communication", "Planning"] },
  { text: "Timebox the standup to 15 minutes.", categories: ["Meetings"] },
  { text: "A shared glossary for robotics terms.", categories: ["Documentation", "Communication"] },
  { text: "Smaller pull requests.", categories: ["Code review"] },
  { text: "Dedicated focus days without meetings.", categories: ["Meetings"] },
  { text: "Better staging environment parity.", categories: ["Tooling", "Testing"] },
];
