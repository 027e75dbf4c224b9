import { randomUUID } from "node:crypto";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { addPatient, foundClinic } from "./clinic-setup";
import { openDashboard } from "./patient";

/**
 * Issue 14, item 8: on a 360 px phone the wide tables (the trace and the AGP's hours, the
 * statistics, the episodes, the events, the clinic's members and audit log) are stacked rows, each
 * value after its column's name (`stack-narrow`, app/globals.css), in text of at least 11 px, and
 * no page scrolls sideways. Every <details> is opened first, so the tables behind them are laid out.
 */

test.use({ viewport: { width: 360, height: 800 } });

async function openEveryDetails(page: Page) {
  await page.evaluate(() => {
    for (const d of document.querySelectorAll("details")) d.open = true;
  });
}

/** The page itself does not scroll sideways. */
async function expectNoSidewaysScroll(page: Page, where: string) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement!;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, `${where}: the page's width`).toBeLessThanOrEqual(clientWidth);
}

/**
 * `table` is stacked: its rows are blocks, each shown cell with a column name says that name
 * before its value, nothing sticks out of the screen or scrolls in its box, and no text is under 11 px.
 */
async function expectStacked(table: Locator, where: string) {
  await expect(table, where).toBeVisible();
  const layout = await table.evaluate((t) => {
    const rows = [...t.querySelectorAll("tbody tr")];
    const cells = [...t.querySelectorAll<HTMLElement>("tbody th, tbody td")].filter(
      (c) => getComputedStyle(c).display !== "none",
    );
    const labelled = cells.filter((c) => c.dataset.label);
    const box = t.parentElement!;
    return {
      rows: rows.length,
      rowDisplays: [...new Set(rows.map((r) => getComputedStyle(r).display))],
      headerShown: ((t as HTMLTableElement).tHead?.getBoundingClientRect().height ?? 0) > 1,
      labelled: labelled.length,
      unlabelled: labelled
        .filter((c) => !getComputedStyle(c, "::before").content.includes(c.dataset.label!))
        .map((c) => c.dataset.label),
      right: Math.max(...cells.map((c) => c.getBoundingClientRect().right)),
      boxOverflow: box.scrollWidth - box.clientWidth,
      smallest: Math.min(
        ...cells.flatMap((c) => [
          Number.parseFloat(getComputedStyle(c).fontSize),
          Number.parseFloat(getComputedStyle(c, "::before").fontSize),
        ]),
      ),
    };
  });
  expect(layout.rows, `${where}: rows`).toBeGreaterThan(0);
  expect(layout.rowDisplays, `${where}: each row a block`).toEqual(["block"]);
  expect(layout.headerShown, `${where}: the header row only for screen readers`).toBe(false);
  expect(layout.labelled, `${where}: labelled cells`).toBeGreaterThan(0);
  expect(layout.unlabelled, `${where}: cells without their column's name`).toEqual([]);
  expect(layout.right, `${where}: the cells end on screen`).toBeLessThanOrEqual(360);
  expect(layout.boxOverflow, `${where}: no sideways scroll in the table's box`).toBeLessThanOrEqual(0);
  expect(layout.smallest, `${where}: text at least 11 px`).toBeGreaterThanOrEqual(11);
}

test("the patient's pages: trace, statistics, episodes, events and the AGP's hours stack, and nothing scrolls sideways", async ({
  page,
}) => {
  await openDashboard(page, "SandboxUser2");

  await page.goto("/dashboard?range=14d");
  await expect(page.getByTestId("statistics-comparison")).toBeVisible();
  await openEveryDetails(page);
  await expectNoSidewaysScroll(page, "overview");
  await expectStacked(page.getByTestId("trace-table"), "overview: the trace per day");
  await expectStacked(page.getByTestId("statistics-comparison"), "overview: statistics");
  await expectStacked(page.getByTestId("episodes-table"), "overview: episodes");

  await page.goto("/dashboard/day");
  await expect(page.getByTestId("trace-table")).toBeAttached();
  await openEveryDetails(page);
  await expectNoSidewaysScroll(page, "daily view");
  await expectStacked(page.getByTestId("trace-table"), "daily view: the trace per hour");
  // SandboxUser2 has lows most days; a day without any shows a sentence instead of the table.
  if ((await page.getByTestId("day-episodes").count()) > 0) {
    await expectStacked(page.getByTestId("day-episodes"), "daily view: episodes");
  }

  await page.goto("/reports");
  await expect(page.getByTestId("agp-report")).toBeVisible();
  await openEveryDetails(page);
  await expectNoSidewaysScroll(page, "AGP");
  await expectStacked(page.getByTestId("agp-hourly"), "AGP: hourly percentiles");
  await expectStacked(page.getByTestId("episodes-table"), "AGP: episodes");

  await page.goto("/dashboard/events?deleted=show");
  const events = page.locator("table:has(tbody tr[data-status])");
  await expect(events).toBeVisible();
  await expectNoSidewaysScroll(page, "events");
  await expectStacked(events, "events");
  // Amount and status, the columns that fell off the right edge before, on screen in a deleted row too.
  for (const status of ["created", "deleted"]) {
    const row = events.locator(`tbody tr[data-status="${status}"]`).first();
    for (const label of ["Amount", "Status"]) {
      const cell = row.locator(`td[data-label="${label}"]`);
      await cell.scrollIntoViewIfNeeded();
      await expect(cell, `${status} event: ${label}`).toBeInViewport({ ratio: 1 });
      const box = (await cell.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${status} event: ${label} ends on screen`).toBeLessThanOrEqual(360);
    }
  }
});

test("the clinic's members and audit log stack on a phone", async ({ page }) => {
  const clinicName = `Phone Clinic ${randomUUID().slice(0, 4)}`;
  // A long address: it must wrap, not widen the page.
  await foundClinic(page, clinicName, {
    email: `ada-with-a-long-address-${randomUUID().slice(0, 8)}@lakeside-clinic.example`,
  });
  // An entry for the audit log.
  await addPatient(page, "Sam Sandbox");
  await expect(page.getByTestId("patient-invitation-link")).toBeVisible();

  await expectNoSidewaysScroll(page, "clinic");
  await expectStacked(page.getByTestId("members"), "clinic: members");

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByTestId("audit-log")).toBeVisible();
  await expectNoSidewaysScroll(page, "audit log");
  await expectStacked(page.getByTestId("audit-log"), "audit log");
});
