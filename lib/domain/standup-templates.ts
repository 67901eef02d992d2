/**
 * The template gallery of the "New standup" page (issue 41 item 12): ready-made question sets
 * using the question types of lib/domain/question-types.ts. A template only pre-fills the form
 * (name, questions, days, time); nothing is stored about which template a standup came from.
 */
import type { StandupQuestionConfig } from "@/lib/domain/standup-config";

/** A template: its id (the `?template=` value), name, one-line description, schedule and questions. */
export type StandupTemplate = {
  id: string;
  name: string;
  description: string;
  /** Three-letter day names. */
  days: string[];
  /** "HH:MM", local time of the standup. */
  time: string;
  questions: ReadonlyArray<StandupQuestionConfig & { isBlocker?: boolean }>;
};

const WORK_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"];
const MOOD_LABELS = ["Awful", "Bad", "Okay", "Good", "Great"];

/** The gallery, in display order. */
export const STANDUP_TEMPLATES: readonly StandupTemplate[] = [
  {
    id: "daily-standup",
    name: "Daily standup",
    description: "The classic three questions every work day.",
    days: WORK_DAYS,
    time: "09:30",
    questions: [
      { text: "What did you do since the last standup?" },
      { text: "What will you do today?" },
      { text: "Anything blocking your progress?", optional: true, isBlocker: true },
    ],
  },
  {
    id: "weekly-check-in",
    name: "Weekly check-in",
    description: "A Friday look back at the week and ahead at the next.",
    days: ["Fri"],
    time: "15:00",
    questions: [
      { text: "How was your week?", answerType: "rating", scale: { min: 1, max: 5, labels: MOOD_LABELS } },
      { text: "What did you get done this week?" },
      { text: "What are your priorities for next week?" },
      { text: "Anything blocking you?", optional: true, isBlocker: true },
    ],
  },
  {
    id: "retrospective",
    name: "Retrospective",
    description: "What went well, what did not, and what to try next.",
    days: ["Fri"],
    time: "14:00",
    questions: [
      {
        text: "How would you rate this iteration?",
        answerType: "rating",
        scale: { min: 1, max: 5, labels: ["Very poor", "Poor", "Fair", "Good", "Excellent"] },
      },
      { text: "What went well?" },
      { text: "What did not go well?" },
      {
        text: "Which areas should we improve?",
        answerType: "multi_select",
        choices: ["Planning", "Communication", "Code review", "Testing", "Deployment", "Meetings"],
        optional: true,
      },
      { text: "What should we try next time?", optional: true },
    ],
  },
  {
    id: "one-on-one",
    name: "1:1",
    description: "Prepare the next one-on-one with your manager.",
    days: ["Mon"],
    time: "10:00",
    questions: [
      { text: "How do you feel about work lately?", answerType: "rating", scale: { min: 1, max: 5, labels: MOOD_LABELS } },
      {
        text: "What would you like to talk about?",
        answerType: "multi_select",
        choices: ["Career growth", "Workload", "Team", "Feedback", "Projects", "Something personal"],
        optional: true,
      },
      { text: "What is on your mind?" },
      { text: "How can I help you?", optional: true },
    ],
  },
  {
    id: "mood",
    name: "Mood",
    description: "A quick daily pulse of how the team feels.",
    days: WORK_DAYS,
    time: "16:30",
    questions: [
      { text: "How are you feeling today?", answerType: "rating", scale: { min: 1, max: 5, labels: MOOD_LABELS } },
      {
        text: "What affects your mood?",
        answerType: "multi_select",
        choices: ["Workload", "Team", "Progress", "Health", "Life outside work"],
        optional: true,
      },
      { text: "Anything you would like to share?", optional: true },
    ],
  },
  {
    id: "okr-progress",
    name: "OKR progress",
    description: "A weekly update on objectives and key results.",
    days: ["Mon"],
    time: "11:00",
    questions: [
      { text: "Which key result did you move forward this week?" },
      { text: "Progress of that key result (percent)", answerType: "number" },
      {
        text: "How confident are you that we reach our objectives this quarter?",
        answerType: "rating",
        scale: { min: 1, max: 5, labels: ["Not at all", "Slightly", "Somewhat", "Very", "Certain"] },
      },
      { text: "What is at risk, and what do you need?", optional: true, isBlocker: true },
    ],
  },
];

/** The template with `id`, or undefined. */
export function findStandupTemplate(id: string | undefined | null): StandupTemplate | undefined {
  return STANDUP_TEMPLATES.find((t) => t.id === id);
}
