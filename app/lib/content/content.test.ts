// The static copy sends students to real places: every "A → B" path names a tab that exists and
// an entry that tab really has, and no placeholder address is left in any page's text.
import { describe, expect, it } from "vitest";
import { backpack } from "../messages/backpack";
import { tabs } from "../messages/tabs";
import { aboutSections } from "./about";
import { pythonTutorials, sampleArticles } from "./blog";
import { faq } from "./customer-service";

const copies: [string, string][] = [
  ["about", JSON.stringify(aboutSections)],
  ["blog", JSON.stringify([pythonTutorials, sampleArticles])],
  ["customer service", JSON.stringify(faq)],
];

const entriesByTab: Record<string, readonly string[]> = { [tabs.backpack]: Object.values(backpack) };

describe("navigation hints in the static copy", () => {
  it.each(copies)("%s: every “tab → entry” names a real tab and one of its entries", (_name, text) => {
    const hints = [...text.matchAll(/“([^“”]+?) → ([^“”]+?)”/g)].map((match) => [match[1]!, match[2]!] as const);
    for (const [tab, entry] of hints) {
      expect(Object.keys(entriesByTab), `tab ${tab}`).toContain(tab);
      expect(entriesByTab[tab], `entry ${entry} of ${tab}`).toContain(entry);
    }
  });

  it.each(copies)("%s: no placeholder address", (_name, text) => {
    expect(text).not.toMatch(/\.example\b|example\.com|lorem ipsum/i);
    expect(text).not.toMatch(/\bTODO\b|\bTBD\b/);
  });
});
