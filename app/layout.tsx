import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Team Check-in", template: "%s · Team Check-in" },
  description: "Async team standups, polls and reports.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/**
 * Root layout: html/body shell shared by the sign-in page and the dashboard. Reading the request
 * headers renders every page per request, so Next.js can put proxy.ts's per-request CSP nonce on
 * its scripts (a prerendered page would carry none and be blocked).
 */
export default async function RootLayout({ children }: { children: React.ReactNode }) {
  await headers();
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">{children}</body>
    </html>
  );
}
