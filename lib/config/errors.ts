/**
 * The error of a "check-ins as code" document that cannot be applied (issue 43): every problem
 * with its path in the document (`standups[2].questions[0].choices: ...`). An InvalidParameterError,
 * so the v2 API answers 400 INVALID_PARAMETER with the problems in the message.
 */
import type { ConfigProblem } from "@/lib/config/schema";
import { InvalidParameterError } from "@/lib/domain/errors";

export class ConfigDocumentError extends InvalidParameterError {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join("; "));
    this.problems = problems;
  }
}
