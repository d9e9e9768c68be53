"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/", label: "Shop", isCurrent: (path: string) => path === "/" },
  { href: "/orders", label: "Orders", isCurrent: (path: string) => path.startsWith("/orders") },
  { href: "/ledger", label: "Ledger", isCurrent: (path: string) => path.startsWith("/ledger") },
];

/** The main navigation, with the page you are on marked (for the eye and for screen readers). */
export function NavLinks() {
  const path = usePathname();
  return (
    <nav aria-label="Main">
      {LINKS.map((link) => (
        <Link key={link.href} href={link.href} aria-current={link.isCurrent(path) ? "page" : undefined}>
          {link.label}
        </Link>
      ))}
    </nav>
  );
}
