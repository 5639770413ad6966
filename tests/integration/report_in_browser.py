#!/usr/bin/env python3
"""The HTML report as a person sees it: the main job's first screen and Table 4 (committed Markdown, bold, lists,
tables) rendered by the analysis's to_html, opened in headless Chromium (Debian's chromium), a screenshot taken, and
the page's text checked: no Markdown left in it (no literal `**` or `| --- |`), the bold and the tables there.

Usage: report_in_browser.py SOURCE OUT   (writes OUT/report.html, OUT/report.png; exit 1 on a failed check)
"""
import html.parser
import os
import shutil
import subprocess
import sys


class PageText(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.bold, self.cells = [], 0, 0

    def handle_starttag(self, tag, attrs):
        self.bold += tag == "strong"
        self.cells += tag == "td"

    def handle_data(self, data):
        self.text.append(data)


def chromium(*arguments):
    return subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", *arguments],
                          capture_output=True, text=True, timeout=120)


def main(source, out):
    if shutil.which("chromium") is None:
        sys.exit("report_in_browser: chromium is missing (Debian: apt install chromium; .ci/setup installs it)")
    sys.path.insert(0, source)
    from analysis import report
    os.makedirs(out, exist_ok=True)
    markdown = "\n\n".join(open(os.path.join(source, path), encoding="utf-8").read()
                           for path in ("docs/measured/main-job.md", "docs/measured/table4.md"))
    page = os.path.join(out, "report.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(report.to_html(markdown))
    url = "file://" + os.path.abspath(page)
    screenshot = os.path.join(out, "report.png")
    shot = chromium(f"--screenshot={screenshot}", "--window-size=1200,900", url)
    dom = chromium("--dump-dom", url)
    text = PageText()
    text.feed(dom.stdout)
    words = "".join(text.text)
    checks = {
        "the browser took a screenshot": shot.returncode == 0 and os.path.exists(screenshot)
        and open(screenshot, "rb").read(8) == b"\x89PNG\r\n\x1a\n",
        "the page has text": dom.returncode == 0 and "Blue Gene/P" in words,
        "no literal ** in the page's text": "**" not in words,
        "no Markdown table rows in the page's text": "| --- |" not in words and "|---|" not in words,
        "bold is bold": text.bold > 0,
        "tables are tables": text.cells > 0,
    }
    for what, passed in checks.items():
        print(f"{what}: {'ok' if passed else 'FAILED'}")
    print(f"screenshot: {screenshot}")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    sys.exit(main(sys.argv[1], sys.argv[2]))
