/**
 * People and channels of the demo teams: real-looking names from locale-matched faker instances
 * (seeded, so the same every run), usernames, emails, avatars, timezones, titles and chat ids.
 * Pure planning: nothing here touches the database.
 */
import { base, de, en, en_AU, en_GB, en_IN, en_US, Faker, type LocaleDefinition, pt_BR } from "@faker-js/faker";
import type { Rng } from "@/lib/seed/random";

/** Fixed faker seed: changing it changes every demo name. */
export const FAKER_SEED = 20_261_121;

export type LocaleName = "de" | "en" | "en_US" | "en_GB" | "en_IN" | "en_AU" | "pt_BR";

const LOCALES: Record<LocaleName, LocaleDefinition> = { de, en, en_US, en_GB, en_IN, en_AU, pt_BR };

/** Who a demo user is before names are drawn: role, place, and group tags used to build rosters. */
export type PersonSpec = {
  title: string;
  timezone: string;
  locale: LocaleName;
  /** Group tags, e.g. "eng", "design", "product", "ops", "mgr". */
  tags: string[];
  is_admin?: boolean;
  is_billing_admin?: boolean;
  /** Fixed email local part (e.g. "admin"); otherwise derived from the username. */
  emailLocal?: string;
};

/** A planned user; `key` is stable ("acme:5") and used to wire rosters before ids exist. */
export type UserPlan = {
  key: string;
  chat_id: string;
  username: string;
  realname: string;
  firstname: string;
  email: string;
  avatar_url: string;
  timezone: string;
  title: string;
  is_admin: boolean;
  is_billing_admin: boolean;
  tags: string[];
  /** Probability (0..1) that this person answers a scheduled standup on a good day. */
  baseRate: number;
  /** Typical minutes after the scheduled time when this person answers. */
  typicalDelay: number;
};

export type ChannelPlan = { key: string; chat_id: string; name: string; topic: string; memberKeys: string[] };

/** The Acme Robotics roster (25 people): index 0 is the admin, index 1 the billing admin. */
export const ACME_PEOPLE: PersonSpec[] = [
  { title: "CTO", timezone: "Europe/Berlin", locale: "de", tags: ["eng", "mgr", "lead"], is_admin: true, emailLocal: "admin" },
  { title: "Head of Operations", timezone: "Europe/London", locale: "en_GB", tags: ["ops", "lead"], is_billing_admin: true },
  { title: "Engineering Manager", timezone: "Europe/Berlin", locale: "de", tags: ["eng", "mgr"] },
  { title: "Product Manager", timezone: "America/New_York", locale: "en_US", tags: ["product"] },
  { title: "Senior Product Manager", timezone: "Europe/London", locale: "en_GB", tags: ["product"] },
  { title: "Staff Software Engineer", timezone: "Europe/Berlin", locale: "de", tags: ["eng", "report"] },
  { title: "Senior Backend Engineer", timezone: "Europe/Berlin", locale: "de", tags: ["eng", "report"] },
  { title: "Backend Engineer", timezone: "Asia/Kolkata", locale: "en_IN", tags: ["eng", "report"] },
  { title: "Backend Engineer", timezone: "Asia/Kolkata", locale: "en_IN", tags: ["eng", "report"] },
  { title: "Frontend Engineer", timezone: "America/New_York", locale: "en_US", tags: ["eng"] },
  { title: "Senior Frontend Engineer", timezone: "America/Los_Angeles", locale: "en_US", tags: ["eng"] },
  { title: "Mobile Engineer", timezone: "America/Sao_Paulo", locale: "pt_BR", tags: ["eng"] },
  { title: "DevOps Engineer", timezone: "UTC", locale: "en", tags: ["eng"] },
  { title: "QA Engineer", timezone: "Asia/Kolkata", locale: "en_IN", tags: ["eng"] },
  { title: "Data Engineer", timezone: "Europe/London", locale: "en_GB", tags: ["eng"] },
  { title: "Site Reliability Engineer", timezone: "America/Los_Angeles", locale: "en_US", tags: ["eng"] },
  { title: "Lead Product Designer", timezone: "America/Los_Angeles", locale: "en_US", tags: ["design"] },
  { title: "Product Designer", timezone: "Europe/Berlin", locale: "de", tags: ["design"] },
  { title: "UX Researcher", timezone: "Europe/London", locale: "en_GB", tags: ["design"] },
  { title: "Product Designer", timezone: "Australia/Sydney", locale: "en_AU", tags: ["design"] },
  { title: "Technical Writer", timezone: "UTC", locale: "en", tags: ["product"] },
  { title: "Customer Success Lead", timezone: "America/New_York", locale: "en_US", tags: ["ops"] },
  { title: "Marketing Manager", timezone: "America/New_York", locale: "en_US", tags: ["ops"] },
  { title: "Data Scientist", timezone: "Asia/Kolkata", locale: "en_IN", tags: ["data"] },
  { title: "Engineering Intern", timezone: "Europe/Berlin", locale: "de", tags: ["eng", "report"] },
];

/** The Globex Labs roster (6 people, one office): index 0 is the admin. */
export const GLOBEX_PEOPLE: PersonSpec[] = [
  {
    title: "Founder & CEO",
    timezone: "America/Chicago",
    locale: "en_US",
    tags: ["lead"],
    is_admin: true,
    is_billing_admin: true,
    emailLocal: "admin",
  },
  { title: "Lead Engineer", timezone: "America/Chicago", locale: "en_US", tags: ["eng"] },
  { title: "Software Engineer", timezone: "America/Chicago", locale: "en_US", tags: ["eng"] },
  { title: "Software Engineer", timezone: "America/Denver", locale: "en_US", tags: ["eng"] },
  { title: "Designer", timezone: "America/New_York", locale: "en_US", tags: ["design"] },
  { title: "Lab Technician", timezone: "America/Chicago", locale: "en_US", tags: ["ops"] },
];

/** Lowercase ASCII slug of a name part: diacritics removed, anything else non-alphanumeric dropped. */
export function slugify(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

/** Avatar URL (192 px, stable per email). */
export function avatarUrl(email: string): string {
  return `https://i.pravatar.cc/192?u=${encodeURIComponent(email)}`;
}

/**
 * Plans the users of one team. Names come from a faker instance per locale seeded with
 * FAKER_SEED + team salt, so they depend only on `teamSlug` and the roster; chat ids
 * (`U` + 8 uppercase alphanumerics) and behaviour traits come from `rng`.
 * @param domain email domain, e.g. "acme.example".
 */
export function planUsers(input: { teamSlug: string; domain: string; people: PersonSpec[]; rng: Rng; fakerSalt: number }): UserPlan[] {
  const fakers = new Map<LocaleName, Faker>();
  const fakerFor = (locale: LocaleName): Faker => {
    let f = fakers.get(locale);
    if (!f) {
      f = new Faker({ locale: [LOCALES[locale], en, base] });
      f.seed(FAKER_SEED + input.fakerSalt + Object.keys(LOCALES).indexOf(locale) * 101);
      fakers.set(locale, f);
    }
    return f;
  };
  const usernames = new Set<string>();
  return input.people.map((spec, index) => {
    const f = fakerFor(spec.locale);
    let firstname = "";
    let lastname = "";
    let username = "";
    for (let attempt = 0; attempt < 20; attempt++) {
      const sex = f.person.sexType();
      firstname = f.person.firstName(sex);
      lastname = f.person.lastName();
      username = `${slugify(firstname)}.${slugify(lastname)}`;
      if (slugify(firstname) && slugify(lastname) && !usernames.has(username)) break;
    }
    usernames.add(username);
    const email = `${spec.emailLocal ?? username}@${input.domain}`;
    return {
      key: `${input.teamSlug}:${index}`,
      chat_id: `U${input.rng.chars(8)}`,
      username,
      realname: `${firstname} ${lastname}`,
      firstname,
      email,
      avatar_url: avatarUrl(email),
      timezone: spec.timezone,
      title: spec.title,
      is_admin: spec.is_admin ?? false,
      is_billing_admin: spec.is_billing_admin ?? false,
      tags: spec.tags,
      baseRate: input.rng.float(0.82, 0.98),
      typicalDelay: input.rng.pick([8, 15, 25, 40, 60]),
    };
  });
}

/** Keys of the users that carry any of `tags`. */
export function withTags(users: UserPlan[], ...tags: string[]): string[] {
  return users.filter((u) => u.tags.some((t) => tags.includes(t))).map((u) => u.key);
}

/** Planned channel with a `C` + 8 character chat id drawn from `rng`. */
export function planChannel(rng: Rng, teamSlug: string, name: string, topic: string, memberKeys: string[]): ChannelPlan {
  return { key: `${teamSlug}#${name}`, chat_id: `C${rng.chars(8)}`, name, topic, memberKeys: [...new Set(memberKeys)] };
}
