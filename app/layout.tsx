import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Team Check-in", template: "%s · Team Check-in" },
  description: "Async team standups, polls and reports.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/** Root layout: html/body shell shared by the sign-in page and the dashboard. */
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">{children}</body>
    </html>
  );
}
