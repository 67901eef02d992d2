/**
 * Delivery configuration (issue 9), read once from the validated environment (lib/env.ts):
 * which platform serves which team, SMTP, the public URL for links, webhook policy. The job worker
 * and tests may pass an explicit config instead (tests point Slack/SMTP at local fakes).
 */
import { authSecret, deliverySettings, linkBaseUrl } from "@/lib/env";

export type DeliveryConfig = {
  /** Slack workspace serving one team (`SLACK_TEAM`: a team name or chat id; null = the first team). */
  slack: { token: string; apiUrl?: string; signingSecret?: string; team: string | null } | null;
  /** SMTP transport URL and From address; null = no e-mail (messages go to the feed and the log). */
  smtp: { url: string; from: string } | null;
  /** Base URL for links in messages, without trailing slash (`linkBaseUrl()`: PUBLIC_URL, else this service). */
  publicUrl: string;
  /** Secret that signs single-purpose answer links (AUTH_SECRET). */
  linkSecret: string;
  /** Webhook retry delays in seconds after attempt 1, 2, ... (the last attempt is the length + 1). */
  webhookRetryDelays: number[];
  webhooksAllowPrivate: boolean;
};

/** Standard Webhooks' suggested schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = [5, 300, 1800, 7200, 18000, 36000];

/** Builds the config from the environment (lib/env.ts `deliverySettings`, `authSecret`). */
export function deliveryConfigFromEnv(): DeliveryConfig {
  const env = deliverySettings();
  return {
    slack: env.slackBotToken
      ? { token: env.slackBotToken, apiUrl: env.slackApiUrl, signingSecret: env.slackSigningSecret, team: env.slackTeam ?? null }
      : null,
    smtp: env.smtpUrl ? { url: env.smtpUrl, from: env.mailFrom } : null,
    publicUrl: linkBaseUrl(),
    linkSecret: authSecret(),
    webhookRetryDelays: env.webhookRetryDelays ?? DEFAULT_WEBHOOK_RETRY_DELAYS,
    webhooksAllowPrivate: env.webhooksAllowPrivate,
  };
}
