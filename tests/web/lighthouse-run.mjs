// Lighthouse runs (mobile, its default profile) on pages, one after the other in one Debian
// headless Chromium (CHROME_PATH), each page in a browser context of its own (its own cookies,
// storage and cache: a fresh browser's), optionally as a signed-in player: the cookies are set
// in the context first (a Cookie header of --extra-headers is dropped by the page's own fetches
// once the page sets a cookie of its own). Used by bench/lighthouse.py.
//
//   node lighthouse-run.mjs JOB.json
//
// JOB: {"categories": [...], "audits": [...] (more audits than the categories', optional),
//       "pages": [{"url": ..., "report": "REPORT.json", "cookies": [{name, value}, ...]}, ...]}
import fs from "node:fs";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
try {
  for (const { url, report, cookies = [] } of job.pages) {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      if (cookies.length) {
        // A new context: the cookies set here are its only storage, so nothing else is kept.
        await page.setCookie(...cookies.map((cookie) => ({ ...cookie, url })));
      }
      const result = await lighthouse(
        url,
        {
          output: "json",
          logLevel: "error",
          onlyCategories: job.categories,
          onlyAudits: job.audits,
          disableStorageReset: cookies.length > 0,
          // Not part of any score: the picture of the whole page the report shows at its top.
          disableFullPageScreenshot: true,
          // The page Lighthouse resets to before it starts the trace and navigates: one of the
          // measured site's own (a tiny JSON answer), not about:blank. From about:blank
          // Chromium (156, site isolation) loads the page in a new renderer process whose
          // tracing begins asynchronously, and now and then after the page's navigationStart:
          // the trace then has no navigation start, Lighthouse fails its metrics (NO_NAVSTART)
          // and the performance score is null (1 page load in 12 to 40 here; CI's `a category
          // score came back null`). From a page of the same site the navigation stays in that
          // page's renderer, traced from before it starts.
          blankPage: new URL("/api/v1/ping", url).href,
        },
        undefined,
        page,
      );
      fs.writeFileSync(report, result.report);
    } finally {
      await context.close();
    }
  }
} finally {
  await browser.close();
}
