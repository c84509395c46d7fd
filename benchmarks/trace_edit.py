"""Chromium's own timeline for a page's main control, the app's 3.3.1 against the minimal app: where the browser's
main thread spends an edit, and which scripts it runs (LATENCY.md, "Where one-query's control change goes").

Usage: .venv/bin/python benchmarks/trace_edit.py   (a probe, not a benchmark with a target; about 2 minutes)
"""
import collections, json, sys, time
sys.path.insert(0, "/work/main")
from playwright.sync_api import sync_playwright
from benchmarks import bench_latency as bl
from benchmarks.completion import open_probed, probed_page, time_interaction
from tests.browser.harness import CHROMIUM_ARGS, ROOT, Server, chromium_path

CALLS = [None]


def traced(page, interaction, n=8):
    cdp = page.context.new_cdp_session(page)
    events = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    done = []
    cdp.on("Tracing.tracingComplete", lambda p: done.append(1))
    expect = time_interaction(page, interaction, 0, None).changed
    cdp.send("Tracing.start", {"categories": "devtools.timeline,disabled-by-default-devtools.timeline", "transferMode": "ReportEvents"})
    totals = []
    for step in range(1, n + 1):
        totals.append(time_interaction(page, interaction, step, expect).finished_ms)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    main = collections.Counter(); calls = collections.Counter()
    renderer = [e for e in events if e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"]
    tids = {e["tid"] for e in renderer}
    for e in events:
        if e.get("ph") == "X" and e.get("tid") in tids and "dur" in e:
            main[e["name"]] += e["dur"] / 1000 / n
            if e["name"] == "FunctionCall":
                d = e.get("args", {}).get("data", {})
                calls[(d.get("url", "")[-60:], d.get("functionName", ""))] += e["dur"] / 1000 / n
    CALLS[0] = calls
    return sorted(totals)[n // 2], main

app = Server(ROOT / "app.py"); minimal = Server(ROOT / "benchmarks" / "minimal_app.py", plain=True)
app.wait_healthy(120); minimal.wait_healthy(120)
try:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        apage, mpage = probed_page(browser), probed_page(browser)
        open_probed(apage, app.url + "/one-query"); open_probed(mpage, minimal.url)
        (_, actl), = [x for x in bl.app_interactions(apage) if x[0] == "main control"]
        mctl = bl.minimal_interaction(mpage, "main control")
        for name, page, ctl in (("app", apage, actl), ("minimal", mpage, mctl)):
            fin, main = traced(page, ctl)
            print(f"{name}: finished median {fin:.0f} ms; renderer main thread per edit (ms, nested events overlap):")
            for k, v in main.most_common(6):
                print(f"   {v:7.1f}  {k}")
            for k, v in CALLS[0].most_common(12):
                print(f"   {v:7.1f}  {k}")
        browser.close()
finally:
    app.stop(); minimal.stop()
