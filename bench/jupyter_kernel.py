"""The Jupyter comparison of `npm run bench`: starts an ipykernel through jupyter_client, imports the scientific
stack (when the kernel's Python has it), and times "1+1" round trips. Prints JSON on stdout; exits non-zero with a
one-line reason as the last line on stderr when jupyter_client or ipykernel is missing."""
import json
import os
import sys
import time


def fail(reason):
    sys.stderr.write(reason + "\n")
    sys.stderr.flush()
    # Not sys.exit: the half-started client's finalizers would print their own tracebacks after the reason.
    os._exit(1)


try:
    from jupyter_client.manager import start_new_kernel
except ImportError as error:
    fail(f"no jupyter_client ({error})")


def execute(client, code):
    # stop_on_error=False: a failed cell (the stack missing) must not abort the cells queued after it.
    msg_id = client.execute(code, stop_on_error=False)
    while True:
        reply = client.get_shell_msg(timeout=120)
        if reply["parent_header"].get("msg_id") == msg_id:
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"{reply['content'].get('ename')}: {reply['content'].get('evalue')}")
            return


started = time.perf_counter()
try:
    manager, client = start_new_kernel(kernel_name="python3")
except Exception as error:  # jupyter_client's NoSuchKernel when ipykernel is missing, among others
    fail(f"no python3 kernel ({type(error).__name__}: {error})")
start_ms = (time.perf_counter() - started) * 1000
try:
    started = time.perf_counter()
    try:
        execute(client, "import numpy, pandas, matplotlib, matplotlib.pyplot, sympy")
        import_ms = (time.perf_counter() - started) * 1000
        import_missing = None
    except RuntimeError as error:
        import_ms = None
        import_missing = str(error)
    for _ in range(50):
        execute(client, "1+1")
    rtt = []
    for _ in range(500):
        started = time.perf_counter()
        execute(client, "1+1")
        rtt.append((time.perf_counter() - started) * 1000)
except Exception as error:  # e.g. no reply within the timeout on a loaded machine
    fail(f"the kernel failed ({type(error).__name__}: {error})")
finally:
    client.stop_channels()
    manager.shutdown_kernel(now=True)
json.dump({"start_ms": start_ms, "import_ms": import_ms, "import_missing": import_missing, "rtt_ms": rtt}, sys.stdout)
sys.stdout.flush()
os._exit(0)
