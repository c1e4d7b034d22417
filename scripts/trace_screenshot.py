# Opens a page trace2html made (Chromium's trace viewer with a trace in it)
# in headless Chromium and saves a screenshot once the viewer has imported
# it; optionally clicks an event first, so its details show below.
#   python3 scripts/trace_screenshot.py page.html out.png [width height [x y]]
# scripts/trace-screenshot.sh runs it; docs/profiling.md shows the result.
import base64, json, subprocess, sys, time, urllib.request
import websocket

page_path, out = sys.argv[1], sys.argv[2]
width, height = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1400, 560)
proc = subprocess.Popen(["chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                         "--hide-scrollbars", "--remote-debugging-port=9334",
                         "--user-data-dir=/tmp/dp-shot-profile", "about:blank"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(150):
        try:
            targets = json.load(urllib.request.urlopen("http://127.0.0.1:9334/json"))
            target = next(t for t in targets if t["type"] == "page")
            break
        except Exception:
            time.sleep(0.2)
    ws = websocket.create_connection(target["webSocketDebuggerUrl"])
    counter = [0]
    def call(method, **params):
        counter[0] += 1
        ws.send(json.dumps({"id": counter[0], "method": method, "params": params}))
        while True:
            msg = json.loads(ws.recv())
            if msg.get("id") == counter[0]:
                if "error" in msg:
                    raise RuntimeError(msg["error"])
                return msg.get("result", {})
    call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
         mobile=False)
    call("Page.navigate", url="file://" + page_path)
    for _ in range(120):  # until the import dialog is gone and tracks are drawn
        time.sleep(0.5)
        r = call("Runtime.evaluate", returnByValue=True, expression=
                 "!document.querySelector('tr-ui-b-overlay') && "
                 "!!document.querySelector('tr-ui-timeline-view')")
        if r.get("result", {}).get("value"):
            break
    time.sleep(2)
    if len(sys.argv) > 6:  # click an event: its details fill the panel below
        x, y = int(sys.argv[5]), int(sys.argv[6])
        for kind in ("mousePressed", "mouseReleased"):
            call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
        time.sleep(1)
    shot = call("Page.captureScreenshot", format="png")
    open(out, "wb").write(base64.b64decode(shot["data"]))
finally:
    proc.terminate()
