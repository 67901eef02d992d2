/** Types of lib/runtime/logger.cjs (the project type-checks no JavaScript). */
import type { Logger } from "pino";

export type LogFormat = "json" | "pretty";
export type LoggerOptions = {
  name: string;
  level?: string;
  format?: LogFormat;
  destination?: { write(line: string): unknown };
};

export function createLogger(opts: LoggerOptions): Logger;
export function processLogger(opts: LoggerOptions): Logger;
export function existingLogger(): Logger | null;
export function captureConsole(logger: Logger): void;
export function captureWarnings(logger: Logger): void;
export function prettyLine(line: string, color: boolean): string;
