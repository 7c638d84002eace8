// One Lighthouse run (mobile, its default profile) on a page, in Debian's headless Chromium
// (CHROME_PATH), optionally as a signed-in player: the cookies are set in the browser first (a
// Cookie header of --extra-headers is dropped by the page's own fetches once the page sets a
// cookie of its own). Used by bench/lighthouse.py.
//
//   node lighthouse-run.mjs URL REPORT.json [COOKIES.json]   (COOKIES: [{name, value}, ...])
import fs from "node:fs";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";

const [url, out, cookiesPath] = process.argv.slice(2);
const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: ["--headless=new", "--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  const cookies = cookiesPath ? JSON.parse(fs.readFileSync(cookiesPath, "utf8")) : [];
  if (cookies.length) {
    // A fresh browser: the cookies set here are the only storage, so nothing else is kept.
    await page.setCookie(...cookies.map((cookie) => ({ ...cookie, url })));
  }
  const result = await lighthouse(
    url,
    {
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility", "best-practices"],
      disableStorageReset: cookies.length > 0,
      // The page Lighthouse resets to before it starts the trace and navigates: one of the
      // measured site's own (a tiny JSON answer), not about:blank. From about:blank Chromium
      // (156, site isolation) loads the page in a new renderer process whose tracing begins
      // asynchronously, and now and then after the page's navigationStart: the trace then has
      // no navigation start, Lighthouse fails its metrics (NO_NAVSTART) and the performance
      // score is null (1 page load in 12 to 40 here; CI's `a category score came back null`).
      // From a page of the same site the navigation stays in that page's renderer, traced
      // from before it starts.
      blankPage: new URL("/api/v1/ping", url).href,
    },
    undefined,
    page,
  );
  fs.writeFileSync(out, result.report);
} finally {
  await browser.close();
}
