/**
 * `npm run config -- export | plan | apply` (issue 43, check-ins as code): see lib/config/cli.ts.
 * Talks to the v2 API of `--url` (or CHECKIN_API_URL) with `--key` (or CHECKIN_API_KEY), an admin's key.
 */
import { runConfigCli } from "@/lib/config/cli";
import { configCliSettings } from "@/lib/env";

const code = await runConfigCli(process.argv.slice(2), { out: (t) => console.log(t), err: (t) => console.error(t) }, configCliSettings());
process.exit(code);
