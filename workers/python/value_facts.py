"""What a value is, told without running much of it: type name, kind, a bounded repr, numpy and pandas facts, a
function's parameters. User code (a __repr__, a property) may still run, and may raise anything."""
import types


def type_name(value):
    cls = type(value)
    module = getattr(cls, "__module__", None)
    name = getattr(cls, "__qualname__", cls.__name__)
    return name if module in (None, "builtins") else "%s.%s" % (module, name)


def kind_of(value):
    if isinstance(value, types.ModuleType):
        return "module"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    return "variable"


def short_repr(value, limit):
    """A bounded repr: containers are abbreviated by reprlib before any long string is built."""
    import reprlib

    shortener = reprlib.Repr()
    shortener.maxstring = shortener.maxother = max(limit, 10)
    shortener.maxlist = shortener.maxtuple = shortener.maxset = shortener.maxdict = 20
    try:
        text = shortener.repr(value)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: B036 - a user __repr__ may raise anything
        text = "<repr failed: %s>" % (type(exc).__name__,)
    return text[:limit]


def finite(number):
    try:
        number = float(number)
    except Exception:
        return None
    return number if number == number and number not in (float("inf"), float("-inf")) else None


def data_facts(value):
    """shape, dtype and size_bytes of numpy arrays and pandas objects; None for everything else."""
    facts = {"shape": None, "dtype": None, "size_bytes": None}
    module = getattr(type(value), "__module__", "") or ""
    if not (module.startswith("numpy") or module.startswith("pandas")):
        return facts
    try:
        shape = getattr(value, "shape", None)
        if isinstance(shape, tuple) and all(isinstance(n, int) for n in shape):
            facts["shape"] = list(shape)[:64]
        dtypes = getattr(value, "dtypes", None)
        if dtypes is not None and hasattr(dtypes, "unique") and not hasattr(value, "dtype"):
            facts["dtype"] = ", ".join(sorted(set(str(t) for t in dtypes)))
        elif getattr(value, "dtype", None) is not None:
            facts["dtype"] = str(value.dtype)
        if hasattr(value, "nbytes") and not hasattr(value, "memory_usage"):
            facts["size_bytes"] = int(value.nbytes)
        elif hasattr(value, "memory_usage"):
            usage = value.memory_usage(deep=False)
            facts["size_bytes"] = int(usage.sum() if hasattr(usage, "sum") else usage)
    except KeyboardInterrupt:
        raise
    except Exception:
        pass
    return facts


def bounded_text(value, limit):
    return None if value is None else str(value)[:limit]


def parameters_of(value):
    import inspect

    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError):
        return None, None
    parameters = []
    for parameter in list(signature.parameters.values())[:500]:
        annotation = parameter.annotation
        if annotation is inspect.Parameter.empty:
            annotation = None
        elif isinstance(annotation, type):
            annotation = annotation.__name__
        else:
            annotation = str(annotation).replace("typing.", "")
        has_default = parameter.default is not inspect.Parameter.empty
        variadic = parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
        parameters.append(
            {
                "name": parameter.name,
                "kind": parameter.kind.name,
                "annotation": annotation,
                "default": short_repr(parameter.default, 200) if has_default else None,
                "required": not has_default and not variadic,
            }
        )
    return str(signature), parameters
