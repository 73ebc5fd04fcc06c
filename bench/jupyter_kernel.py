"""The Jupyter comparison of `npm run bench`: starts an ipykernel through jupyter_client, imports the scientific
stack, and times "1+1" round trips. Prints JSON on stdout; exits non-zero (with the reason on stderr) when
jupyter_client or ipykernel is missing."""
import json
import sys
import time

from jupyter_client.manager import start_new_kernel


def execute(client, code):
    msg_id = client.execute(code)
    while True:
        reply = client.get_shell_msg(timeout=120)
        if reply["parent_header"].get("msg_id") == msg_id:
            if reply["content"]["status"] != "ok":
                raise RuntimeError(reply["content"])
            return


started = time.perf_counter()
manager, client = start_new_kernel(kernel_name="python3")
start_ms = (time.perf_counter() - started) * 1000
try:
    started = time.perf_counter()
    execute(client, "import numpy, pandas, matplotlib, matplotlib.pyplot, sympy")
    import_ms = (time.perf_counter() - started) * 1000
    for _ in range(50):
        execute(client, "1+1")
    rtt = []
    for _ in range(500):
        started = time.perf_counter()
        execute(client, "1+1")
        rtt.append((time.perf_counter() - started) * 1000)
finally:
    client.stop_channels()
    manager.shutdown_kernel(now=True)
json.dump({"start_ms": start_ms, "import_ms": import_ms, "rtt_ms": rtt}, sys.stdout)
