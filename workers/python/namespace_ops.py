"""The namespace, seen from outside a cell: list, inspect, call, remove, reset (src/wire/contract.ts, "namespace").

Names arrive as data and are resolved with getattr only; nothing here evaluates a string as code.
"""
import builtins
import json
import os
import re
import sys
import types

from .environment import WORKSPACE, restore_builtins
from .streams import BoundedStream
from .tasks import CellTask, drain_finalizers
from .value_facts import bounded_text, data_facts, finite, kind_of, parameters_of, short_repr, type_name

_DOTTED_NAME = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


class _NamespaceError(Exception):
    """A namespace request the caller can fix: answered as {"ok": false, "code", "message"}."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


def _resolve(namespace, name):
    """The object a name or dotted path names: the namespace first, then builtins; attributes by getattr."""
    if not isinstance(name, str) or not _DOTTED_NAME.match(name):
        raise _NamespaceError("INVALID_INPUT", "%r is not a name or a dotted path of names (like df.columns)" % (name,))
    parts = name.split(".")
    if parts[0] in namespace:
        value = namespace[parts[0]]
    elif hasattr(builtins, parts[0]):
        value = getattr(builtins, parts[0])
    else:
        import difflib

        close = difflib.get_close_matches(parts[0], [n for n in namespace if not n.startswith("_")], 3)
        hint = " (did you mean %s?)" % (", ".join(close),) if close else ""
        raise _NamespaceError(
            "NAME_NOT_FOUND", "%r is not defined in the session's namespace%s; list_variables shows what is" % (parts[0], hint)
        )
    for index, part in enumerate(parts[1:], 1):
        try:
            value = getattr(value, part)
        except KeyboardInterrupt:
            raise
        except Exception:
            raise _NamespaceError("NAME_NOT_FOUND", "%s has no attribute %r" % (".".join(parts[:index]), part))
    return value


_MISSING = object()


def list_variables(session, request):
    pattern = request.get("filter") or ""
    wildcard = any(c in pattern for c in "*?[")
    import fnmatch

    matched = []
    for name in sorted(session.namespace):
        if name.startswith("_"):
            continue
        # Pyodide 0.17 (legacy) starts __main__ with every builtin copied in: those are not the user's variables
        # (a name the user rebinds is no longer the builtin, and is listed).
        if getattr(builtins, name, _MISSING) is session.namespace[name]:
            continue
        if pattern and not (fnmatch.fnmatch(name, pattern) if wildcard else pattern.lower() in name.lower()):
            continue
        matched.append(name)
    variables = []
    for name in matched[: int(request["max_items"])]:
        value = session.namespace.get(name)
        facts = data_facts(value)
        if facts["shape"] is not None:
            text = "%s of shape %s" % (type(value).__name__, tuple(facts["shape"]))
        elif isinstance(value, types.ModuleType):
            text = "<module %r>" % (getattr(value, "__name__", name),)
        else:
            text = " ".join(short_repr(value, int(request["repr_chars"]) * 2).split())[: int(request["repr_chars"])]
        entry = {"name": name, "type": type_name(value), "kind": kind_of(value), "repr": text}
        entry.update(facts)
        variables.append(entry)
    return {"variables": variables, "total": len(matched)}


def inspect_variable(session, request):
    import inspect

    name, limit, detail = request["name"], int(request["text_chars"]), bool(request["detail"])
    value = _resolve(session.namespace, name)
    kind = kind_of(value)
    out = {
        "name": name,
        "type": type_name(value),
        "kind": kind,
        "repr": short_repr(value, limit),
        "doc": None,
        "signature": None,
        "parameters": None,
        "source": None,
        "length": None,
        "columns": None,
        "head": None,
        "describe": None,
        "stats": None,
        "attributes": None,
    }
    out.update(data_facts(value))
    if kind != "variable":
        # An instance's docstring is its class's: noise for a variable, the point for a function or class.
        out["doc"] = bounded_text(inspect.getdoc(value), limit)
    if kind in ("function", "class"):
        out["signature"], out["parameters"] = parameters_of(value)
    if kind in ("function", "class") or (kind == "module" and detail):
        try:
            out["source"] = bounded_text(inspect.getsource(value), limit)
        except (OSError, TypeError):
            pass
    if kind == "variable":
        try:
            out["length"] = len(value)
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    module = getattr(type(value), "__module__", "") or ""
    if module.startswith("pandas"):
        try:
            dtypes = getattr(value, "dtypes", None)
            if dtypes is not None and hasattr(dtypes, "items") and not hasattr(value, "dtype"):
                out["columns"] = [{"name": str(c), "dtype": str(t)} for c, t in list(dtypes.items())[:1000]]
            if hasattr(value, "head"):
                out["head"] = bounded_text(value.head().to_string(), limit)
            if hasattr(value, "describe"):
                out["describe"] = bounded_text(value.describe().to_string(), limit)
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    if module.startswith(("numpy", "pandas")) and getattr(value, "dtype", None) is not None:
        try:
            if value.dtype.kind in "iufb" and value.size > 0:
                out["stats"] = {"min": finite(value.min()), "max": finite(value.max()), "mean": finite(value.mean())}
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    if detail:
        try:
            out["attributes"] = [a for a in dir(value) if not a.startswith("_")][:1000]
        except KeyboardInterrupt:
            raise
        except Exception:
            pass
    return out


def remove_variables(session, request):
    removed, not_found = [], []
    for name in request["names"]:
        if name.startswith("__") and name.endswith("__"):
            raise _NamespaceError("INVALID_INPUT", "%s belongs to the interpreter and cannot be removed" % (name,))
        if name in session.namespace:
            del session.namespace[name]
            removed.append(name)
        else:
            not_found.append(name)
    return {"removed": removed, "not_found": not_found}


def reset(session, request):
    """A fresh namespace, as after a kernel restart: user names go, modules stay imported, figures close, the
    execution count starts again; the workspace files go too when asked."""
    namespace = session.namespace
    names = [name for name in namespace if not name.startswith("_") and name not in session.pristine]
    namespace.clear()
    namespace.update(session.pristine)
    restore_builtins()
    session.execution_count = 0
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")
    if request.get("clear_files"):
        import shutil

        for entry in os.listdir(WORKSPACE):
            path = os.path.join(WORKSPACE, entry)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.remove(path)
    return {"removed": len(names)}


NAMESPACE_OPS = {
    "list_variables": list_variables,
    "inspect_variable": inspect_variable,
    "remove_variables": remove_variables,
    "reset": reset,
}


def run_op(session, op, request):
    """Runs a namespace op with anything user code prints (a __repr__, a property) thrown away."""
    sink = BoundedStream("discarded", 0)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = sink, sink
    try:
        drain_finalizers()
        return json.dumps({"ok": True, "value": NAMESPACE_OPS[op](session, request)})
    except _NamespaceError as exc:
        return json.dumps({"ok": False, "code": exc.code, "message": str(exc)})
    except KeyboardInterrupt:
        return json.dumps({"ok": False, "code": "INTERRUPTED", "message": "interrupted"})
    except BaseException as exc:  # noqa: B036 - user code reached through a property may raise anything
        return json.dumps({"ok": False, "code": "FAILED", "message": "%s: %s" % (type(exc).__name__, exc)})
    finally:
        sys.stdout, sys.stderr = saved


def call_function(namespace, call):
    """call_function: the namespace function `call["name"]` called with JSON arguments, inside a cell."""
    try:
        function = _resolve(namespace, call["name"])
    except _NamespaceError as exc:
        raise (NameError if exc.code == "NAME_NOT_FOUND" else ValueError)(str(exc))
    if not callable(function):
        raise TypeError("%s is not callable (it is a %s); inspect_variable shows what it is" % (call["name"], type_name(function)))
    value = function(*call.get("args", []), **call.get("kwargs", {}))
    if type(value).__name__ == "coroutine":
        import asyncio

        return CellTask(asyncio.ensure_future(value))
    return value
