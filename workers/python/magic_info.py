"""%who, %whos and obj? / obj??: what the namespace holds, in IPython's formats.

Runs on Python 3.8 and 3.14 (no newer syntax).
"""
import inspect


def _user_names(namespace, hidden, line):
    wanted = set(line.split())
    names = []
    for name in sorted(namespace):
        if name.startswith("_") or name in hidden:
            continue
        if wanted and type(namespace[name]).__name__ not in wanted:
            continue
        names.append(name)
    return names


def who(namespace, hidden, line):
    """%who [type ...]: the user's names, tab-separated, nine to a row."""
    names = _user_names(namespace, hidden, line)
    if not names:
        print("No variables match your requested type." if line.strip() else "Interactive namespace is empty.")
        return None
    rows = [names[i : i + 9] for i in range(0, len(names), 9)]
    print("\n".join("\t ".join(row) + "\t " for row in rows))
    return None


def _summary(value, type_name):
    if type_name in ("list", "tuple", "dict", "set", "frozenset"):
        return "n=%d" % (len(value),)
    if type_name == "ndarray":
        shape = "x".join(str(n) for n in value.shape)
        return "%s: %d elems, type `%s`, %d bytes" % (shape, value.size, value.dtype, value.size * value.itemsize)
    if type_name in ("DataFrame", "Series"):
        return "Shape: %s" % (value.shape,)
    try:
        text = str(value)
    except Exception:
        text = "<object with id %d (str() failed)>" % (id(value),)
    text = text.replace("\n", "\\n")
    return text if len(text) < 50 else text[:25] + "<...>" + text[-25:]


def whos(namespace, hidden, line):
    """%whos [type ...]: a table of name, type and a short description."""
    names = _user_names(namespace, hidden, line)
    if not names:
        print("No variables match your requested type." if line.strip() else "Interactive namespace is empty.")
        return None
    types = [type(namespace[name]).__name__ for name in names]
    name_width = max(max(len(n) for n in names), len("Variable")) + 3
    type_width = max(max(len(t) for t in types), len("Type")) + 3
    print("Variable".ljust(name_width) + "Type".ljust(type_width) + " Data/Info")
    print("-" * (name_width + type_width + len("Data/Info") + 1))
    for name, type_name in zip(names, types):
        print(name.ljust(name_width) + type_name.ljust(type_width) + " " + _summary(namespace[name], type_name))
    return None


def _find(target, namespace):
    import builtins

    parts = target.lstrip("%").split(".")
    if target.startswith("%"):
        return None, False
    if parts[0] in namespace:
        value = namespace[parts[0]]
    elif hasattr(builtins, parts[0]):
        value = getattr(builtins, parts[0])
    else:
        return None, False
    for part in parts[1:]:
        if not hasattr(value, part):
            return None, False
        value = getattr(value, part)
    return value, True


def describe_object(target, namespace, with_source):
    """obj? (signature, docstring, file, type) and obj?? (the source too), as IPython's pinfo and pinfo2."""
    target = target.strip()
    value, found = _find(target, namespace)
    if not found:
        print("Object `%s` not found." % (target,))
        return None
    lines = []
    try:
        lines.append(("Signature:", target.split(".")[-1] + str(inspect.signature(value))))
    except (TypeError, ValueError):
        pass
    if not callable(value) or isinstance(value, type):
        text = repr(value)
        lines.append(("String form:", text if len(text) < 200 else text[:100] + " <...> " + text[-100:]))
    if hasattr(value, "__len__") and not isinstance(value, type):
        try:
            lines.append(("Length:", str(len(value))))
        except Exception:
            pass
    source = None
    if with_source:
        try:
            source = inspect.getsource(value)
        except (TypeError, OSError):
            source = None
    if source is not None:
        lines.append(("Source:", "\n" + source.rstrip("\n")))
    else:
        doc = inspect.getdoc(value)
        lines.append(("Docstring:", doc if doc else "<no docstring>"))
    try:
        lines.append(("File:", inspect.getfile(value)))
    except (TypeError, OSError):
        pass
    lines.append(("Type:", type(value).__name__))
    width = max(len(label) for label, _ in lines) + 1
    for label, text in lines:
        print(label.ljust(width) + text if not text.startswith("\n") else label + text)
    return None
