import type { Metadata } from "next";
import Image from "next/image";
import Link from "next/link";
import type { ReactNode } from "react";
import { ConnectionNotice } from "./_components/connection-notice";
import { NavLinks } from "./_components/nav-links";
import { TRPCReactProvider } from "./_trpc/provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Idempotent Checkout", template: "%s · Idempotent Checkout" },
  description: "A checkout whose retried payments charge exactly once.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <header className="site-header">
          <Link href="/" className="brand">
            <Image src="/icon.svg" alt="" width={28} height={28} unoptimized /> Idempotent Checkout
          </Link>
          <NavLinks />
        </header>
        <main id="main">
          <TRPCReactProvider>
            <ConnectionNotice />
            {children}
          </TRPCReactProvider>
        </main>
        <footer className="site-footer">
          A demo: no money moves. The shop charges each payment at most once per key, whatever the network
          does; where its fault lab is on, a pitfall breaks that rule on purpose, and the page shows the
          damage.
        </footer>
      </body>
    </html>
  );
}
