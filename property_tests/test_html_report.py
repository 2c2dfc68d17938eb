"""The HTML report (``privclaims ledger --html PATH``, issue 24 item 4): one self-contained page, findings first,
filters by area and verdict, a search box, each claim expandable — tested on its text and in a real browser
(headless Chromium from the system packages, driven by Selenium through ``/usr/bin/chromedriver``; skipped, with
the reason, where either is absent). The browser tests keep a screenshot under the test's tmp folder and print
its path; ``property_tests/test_ledger.py`` runs the same DOM checks on ``privclaims ledger --quick --html``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import pytest

from privclaims.checks.html import to_html

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "my-draft"
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,1000")
PNG_1PX = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a5f3a8e30000000049454e44ae426082")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None: they can)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    if chromium is None or driver is None:
        return ("headless Chromium is not installed (Debian: apt-get install chromium chromium-driver; .ci/run "
                "installs it where the machine allows)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def open_browser(user_dir: Path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={user_dir}"):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=opts)


def check_page_filters(html_file: Path, doc: dict, screenshot: Path) -> None:
    """Load the page and check, through the DOM, that the counts and the filters agree with the JSON report
    ``doc`` of the same run; keep a screenshot (filtered to the first area that has a finding, one finding open)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    claims = doc["claims"]
    findings = [c for c in claims if c["verdict"] in ("refuted", "reading-dependent", "discrepancy")]
    with tempfile.TemporaryDirectory() as user_dir:
        d = open_browser(Path(user_dir))
        try:
            d.get(html_file.resolve().as_uri())
            count = lambda: (int(d.find_element(By.ID, "shown-count").text),  # noqa: E731
                             int(d.find_element(By.ID, "findings-count").text))
            # the cards the browser renders (Element.checkVisibility with visibility and opacity, as Selenium's
            # is_displayed: not display:none / hidden, visibility:hidden or opacity 0, itself or an ancestor), read
            # in one round trip - per-element is_displayed() calls cost ~30 s on 271 cards
            visible = lambda: d.execute_script(  # noqa: E731
                "return Array.from(document.querySelectorAll('details.claim'))"
                ".filter(e => e.checkVisibility({visibilityProperty: true, opacityProperty: true}))"
                ".map(e => [e.getAttribute('data-id'), e.getAttribute('data-verdict'), e.id])")
            shown = lambda: [i for i, _, _ in visible()]  # noqa: E731
            assert count() == (len(claims), len(findings))
            cards = d.find_elements(By.CSS_SELECTOR, "details.claim")
            assert [c.get_attribute("data-id") for c in cards[:len(findings)]] == [  # findings first
                c["id"] for v in ("refuted", "reading-dependent", "discrepancy") for c in findings if c["verdict"] == v]
            assert d.execute_script("return performance.getEntriesByType('resource').length") == 0  # no network
            area, verdict = Select(d.find_element(By.ID, "area-filter")), Select(d.find_element(By.ID, "verdict-filter"))
            for a in dict.fromkeys(c["area"] for c in claims):
                area.select_by_value(a)
                want = [c for c in claims if c["area"] == a]
                assert count() == (len(want), sum(c in findings for c in want)), a
                assert sorted(shown()) == sorted(c["id"] for c in want), a
            area.select_by_value("")
            for v, n in Counter(c["verdict"] for c in claims).items():
                verdict.select_by_value(v)
                rows = visible()
                assert count()[0] == n == len(rows) and all(dv == v and el == f"claim-{i}" for i, dv, el in rows), v
            verdict.select_by_value("")
            target = (findings or claims)[0]
            box = d.find_element(By.ID, "search")
            box.send_keys(target["id"])
            assert target["id"] in shown() and 1 <= count()[0] <= len(claims)
            box.clear()
            box.send_keys("no claim says this: qqqzzz")
            assert count() == (0, 0) and d.find_element(By.ID, "no-match").is_displayed()
            box.clear()
            d.execute_script("arguments[0].dispatchEvent(new Event('input'))", box)
            assert count() == (len(claims), len(findings))
            area.select_by_value(target["area"])
            card = d.find_element(By.ID, f"claim-{target['id']}")
            card.find_element(By.TAG_NAME, "summary").click()
            assert card.get_attribute("open") is not None
            body = card.find_element(By.CSS_SELECTOR, ".body").text
            assert target["statement"].split()[0] in body and "Readings tested" in body
            d.save_screenshot(str(screenshot))
        finally:
            d.quit()
    print(f"screenshot of the HTML report: {screenshot}")


def _example_report(tmp_path: Path) -> tuple[Path, dict]:
    html, js = tmp_path / "report.html", tmp_path / "report.json"
    r = subprocess.run([sys.executable, "-m", "privclaims", "ledger", "--project", str(EXAMPLE), "--html", str(html),
                        "--json", str(js), "--no-table"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return html, json.loads(js.read_text())


def test_the_page_is_self_contained_with_findings_first(tmp_path):
    html, doc = _example_report(tmp_path)
    page = html.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched: styles and script inline
    assert "<style>" in page and "<script>" in page
    ids = re.findall(r'<details class="claim" id="claim-([^"]+)"', page)
    assert sorted(ids) == sorted(c["id"] for c in doc["claims"])
    assert ids[:2] == ["maskit.hospital_only", "dp.rating"]  # refuted, then reading-dependent, then the rest
    assert 'data-finding="1"' in page and 'id="findings-count">2<' in page
    for text in ("its outputs split into a good set Ω1 and a bad set Ω2",  # quotes
                 "per input", "Readings tested",
                 "Parts of the statement", "Witness", "1761/2000"):
        assert text in page, text


def test_figures_are_inlined_as_data_uris(tmp_path):
    png = tmp_path / "fig.png"
    png.write_bytes(PNG_1PX)
    row = {"id": "x.fig", "area": "x", "source": "s", "statement": "a figure", "method": "reproduction",
           "verdict": "reproduced", "expected": "verified", "evidence": {"shape": "rises", "figure": str(png)},
           "readings": [], "pin": {"moved": ["verdict: pinned verified, now reproduced"]}}
    page = to_html([row], {"project": "t", "drift": ["x.fig"]})
    assert "data:image/png;base64," in page and str(png) not in page.split("<body>")[1].split('data-search="')[0]
    assert 'data-drift="1"' in page and "verdict: pinned verified, now reproduced" in page
    assert "1 claim(s) differ from their pin" in page


@pytest.fixture
def browser():
    why = browser_missing()
    if why:
        pytest.skip(why)


def test_the_example_report_in_a_browser(browser, tmp_path):
    html, doc = _example_report(tmp_path)
    check_page_filters(html, doc, tmp_path / "example-report.png")
    assert (tmp_path / "example-report.png").stat().st_size > 10_000
