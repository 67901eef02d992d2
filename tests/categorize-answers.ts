/** Open-ended answers shared by the categorization tests: three about meetings, then three about code review. */
export const MEETING_AND_REVIEW_ANSWERS = [
  "Fewer recurring meetings, more async updates.",
  "Too many meetings on Tuesdays.",
  "Cancel meetings that have no agenda.",
  "Code reviews should be picked up within a day.",
  "Agree on a code review checklist.",
  "Faster code review turnaround.",
];
