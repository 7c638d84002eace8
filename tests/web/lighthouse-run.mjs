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
    },
    undefined,
    page,
  );
  fs.writeFileSync(out, result.report);
} finally {
  await browser.close();
}
