import type { Locator, Page } from "@playwright/test";

/** On how many lines `text`, inside `element`'s text, is laid out (0: not found). */
export const linesOf = (element: Locator, text: string) =>
  element.evaluate((el, t) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    let all = "";
    const nodes: { node: Text; start: number }[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node: node as Text, start: all.length });
      all += node.textContent ?? "";
    }
    const from = all.indexOf(t);
    if (from < 0) return 0;
    const to = from + t.length;
    const at = (i: number) => {
      const n = nodes.findLast((x) => x.start <= i) ?? nodes[0]!;
      return [n.node, Math.min(i - n.start, n.node.length)] as const;
    };
    const range = document.createRange();
    range.setStart(...at(from));
    range.setEnd(...at(to));
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  }, text);

/**
 * The narrowest line each of these phone widths lays `text` out on: a text that must stay whole
 * (a date, a badge) is checked wherever the line happens to break, not only at one width.
 */
export async function mostLinesAcrossPhoneWidths(page: Page, element: Locator, text: string) {
  const size = page.viewportSize();
  let most = 0;
  for (let width = 360; width >= 280; width -= 8) {
    await page.setViewportSize({ width, height: 900 });
    most = Math.max(most, await linesOf(element, text));
  }
  if (size) await page.setViewportSize(size);
  return most;
}
