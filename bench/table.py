"""The table's speed as a phone shows it (headless Debian Chromium, 390 x 844, touch), through
the production topology (nginx, gunicorn, uvicorn: scripts/serve-topology.sh):

1. a visitor's one press on the home page's first button to the first frame with cards on the
   dealt table (timed by the browser's own clock: the press's `pointerdown` to the first
   animation frame with a card in column 1), each visitor a new browser context (no cache);
2. the frame times while cards move: ms between animation frames from the first frame with a
   running animation to the last, over draws from the stock on a signed-in player's table.

    python bench/table.py [--visitors 10] [--draws 10] [--quick] [--database NAME]

Targets (issue 22): press to dealt table < 2 s; median frame during a move within two 60 Hz
frames (< 34 ms). tests/web/test_visitor.py and test_motion.py check what happens on the
way; the times are measured here, never asserted in a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import production_env, start_topology, stop  # noqa: E402
from lighthouse import CHROMIUM, free_port, signed_in_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-US",
}
FIRST_CARDS = '[data-pile="tableau:1"] .card'
# The moment of the press, kept across the navigation it starts (same tab, same origin).
CLICK_CLOCK = """() => addEventListener("pointerdown", () => sessionStorage.setItem("pressedAt",
    String(performance.timeOrigin + performance.now())), {capture: true, once: true})"""
# In every table page, before its scripts: the first frame with cards is noted.
CARDS_CLOCK = """if (location.pathname.startsWith("/play/")) {
    const tick = () => {
        const cards = document.querySelector('[data-pile="tableau:1"] .card');
        if (!cards) return requestAnimationFrame(tick);
        sessionStorage.setItem("cardsAt", String(performance.timeOrigin + performance.now()));
    };
    requestAnimationFrame(tick);
}"""
TIPS_SEEN = "try { localStorage.setItem('tipsSeen', '1'); } catch (error) {}"
RUNNING = "() => document.getAnimations().filter(a => a.playState === 'running').length"
# Frame times (ms between animation frames) from the first frame with a running animation to
# the last one (at most 3 s).
RECORD = """() => { window.frameTimes = new Promise(resolve => {
    const frames = [];
    let last = performance.now();
    let seen = false;
    const started = last;
    const step = now => {
        const moving = document.getAnimations().some(a => a.playState === "running");
        if (seen) frames.push(now - last);
        last = now;
        seen = seen || moving;
        if ((!seen || moving) && now - started < 3000) requestAnimationFrame(step);
        else resolve(frames);
    };
    requestAnimationFrame(step);
}); }"""


def press_to_table(browser: Any, base: str, visitors: int) -> list[float]:
    """Seconds from each new visitor's press on the home page to the first frame with cards."""
    seconds = []
    for _ in range(visitors):
        context = browser.new_context(base_url=base, **PHONE)
        context.add_init_script(TIPS_SEEN)
        context.add_init_script(CARDS_CLOCK)
        page = context.new_page()
        page.goto("/")
        page.evaluate(CLICK_CLOCK)
        page.locator("main button").first.click()
        page.wait_for_selector(FIRST_CARDS)
        page.wait_for_function("() => sessionStorage.getItem('cardsAt')")
        seconds.append(
            page.evaluate(
                "() => (sessionStorage.getItem('cardsAt')"
                " - sessionStorage.getItem('pressedAt')) / 1000"
            )
        )
        context.close()
    return seconds


def draw_frames(browser: Any, base: str, draws: int) -> list[float]:
    """Frame times (ms) while the cards of `draws` draws travel on a signed-in player's table."""
    cookies, game_id = signed_in_game(base)
    context = browser.new_context(base_url=base, reduced_motion="no-preference", **PHONE)
    context.add_init_script(TIPS_SEEN)
    context.add_cookies([{**cookie, "url": base} for cookie in cookies])
    page = context.new_page()
    page.goto(f"/play/{game_id}")
    page.wait_for_selector(FIRST_CARDS)
    frames: list[float] = []
    for _ in range(draws):
        page.wait_for_function(f"() => ({RUNNING})() === 0")
        page.evaluate(RECORD)
        page.tap('[data-pile="stock"]')
        frames += page.evaluate("() => window.frameTimes")
    context.close()
    return frames


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visitors", type=int, default=10)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--quick", action="store_true", help="3 visitors, 3 draws")
    parser.add_argument("--database", default="canfield_bench_table", help="a new database")
    args = parser.parse_args()
    if args.quick:
        args.visitors, args.draws = 3, 3
    from playwright.sync_api import sync_playwright

    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="bench-table-"))
    server = start_topology(
        root=ROOT,
        port=port,
        log=str(work / "topology.log"),
        workers=2,
        env=production_env(args.database),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            press_to_table(browser, base, 1)  # a server in production is warm
            seconds = press_to_table(browser, base, args.visitors)
            frames = draw_frames(browser, base, args.draws)
            browser.close()
    finally:
        stop(server)
    print(
        f"press to dealt table ({len(seconds)} visitors): median {statistics.median(seconds):.2f}"
        f" s, max {max(seconds):.2f} s (target < 2 s)"
    )
    print(
        f"frames while cards move ({len(frames)} frames, {args.draws} draws): median "
        f"{statistics.median(frames):.1f} ms, p95 {_p95(frames):.1f} ms, max {max(frames):.1f} ms"
        " (target: median < 34 ms)"
    )


if __name__ == "__main__":
    main()
