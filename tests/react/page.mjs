// A page in headless Chromium for the consumer apps, keeping every problem the page reports
// (uncaught errors, console errors and warnings: React's hydration warnings among them).
import { launchChromium } from "../chromium.mjs";

export async function openPage() {
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  page.setDefaultTimeout(30_000);
  const problems = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning") problems.push(`console.${message.type()}: ${message.text()}`);
  });
  return { browser, page, problems };
}
