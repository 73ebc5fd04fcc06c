/**
 * The modern runtime's package unpacking, without a temporary file.
 *
 * Why: Pyodide's `pyodide._package_loader.unpack_buffer` (the step of `loadPackage` that unpacks a wheel or a shared
 * library's zip) first copies the whole archive into a `tempfile.NamedTemporaryFile` in /tmp. That file counted
 * against the session's file quota, so a wheel larger than `--max-file-bytes` (or than what the session had left)
 * could not be installed (measured: `--max-file-bytes 1500` and a 1.7 KB wheel gave ModuleNotFoundError), and it sat
 * in /tmp, a directory user code writes to, under a name from tempfile (whose directory and names user code can
 * change: `tempfile.tempdir`, TMPDIR).
 * What: the same function, reading the archive where it already is (the JavaScript buffer Pyodide read the file into),
 * a piece at a time, through a seekable file object over it. Nothing is written but the package's own files, so
 * the quota's exemption for package installs (file-quota.ts: under /lib and /usr/lib, only during the worker's own
 * installs) need not cover any other directory, and nothing is left or seen in /tmp whatever size the wheel has.
 * The rest is Pyodide's own: the same formats, the same entries skipped (absolute paths, `..`), its metadata,
 * data-file and shared-library helpers (checked against the original on the same archives).
 *
 * Security: this is Python in the user's interpreter, like the loader it replaces: user code can change it (or
 * `zipfile`, `shutil`) and so break its own session's installs, as it could before. It adds no capability: the
 * package files still go where Pyodide puts them, and the quota's rules are file-quota.ts's.
 * The code runs in its own namespace (not __main__, the user's) and is ours, never user input.
 */
export const PACKAGE_UNPACK_PY = String.raw`
import io
import shutil
import tarfile
import zipfile
from pathlib import Path

import pyodide._package_loader as loader
from js import Uint8Array
from pyodide.ffi import to_js

# Each read asks JavaScript for one piece of the archive; zipfile makes many small reads (headers).
_READ_AHEAD = 1 << 20


class _ArchiveView(io.RawIOBase):
    """A read-only, seekable file over a JavaScript Uint8Array: the archive is read in place, never copied whole."""

    def __init__(self, buffer):
        self._memory = buffer.buffer
        self._offset = buffer.byteOffset
        self._size = buffer.length
        self._position = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self._position

    def seek(self, offset, whence=io.SEEK_SET):
        base = (0, self._position, self._size)[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, target):
        view = memoryview(target).cast("B")
        end = min(self._size, self._position + len(view))
        if end <= self._position:
            return 0
        count = end - self._position
        # A new view, not buffer.subarray(): measured, the last JavaScript method called from Python and its receiver
        # (here the whole archive) stay in Pyodide's table of JavaScript references until the next such call, and a
        # memory snapshot made meanwhile fails ("Can't serialize object at index 7").
        Uint8Array.new(self._memory, self._offset + self._position, count).assign_to(view[:count])
        self._position = end
        return count


def _format_of(filename):
    """The archive format of a file name, as shutil.unpack_archive finds it."""
    for name, extensions, _ in shutil.get_unpack_formats():
        if any(filename.endswith(extension) for extension in extensions):
            return name
    raise shutil.ReadError(f"Unknown archive format '{filename}'")


def _extract_zip(archive, target):
    """shutil's zip unpacking, from an open ZipFile: absolute names and names with '..' are skipped."""
    for info in archive.infolist():
        name = info.filename
        if name.startswith("/") or ".." in name:
            continue
        path = target.joinpath(*name.split("/"))
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as source, open(path, "wb") as sink:
            shutil.copyfileobj(source, sink)


def unpack_buffer(buffer, *, filename="", format=None, extract_dir=None, calculate_dynlibs=False, metadata=None):
    """pyodide._package_loader.unpack_buffer (same arguments, same result), reading the archive in place."""
    if format:
        format = loader.get_format(format)
    if not filename and format is None:
        raise ValueError("At least one of filename and format must be provided")
    extract_path = Path(extract_dir or ".")
    filename = filename.rpartition("/")[-1]
    format = format or _format_of(filename)
    extract_path.mkdir(parents=True, exist_ok=True)
    with io.BufferedReader(_ArchiveView(buffer), _READ_AHEAD) as stream:
        if format in ("zip", "whl"):
            with zipfile.ZipFile(stream) as archive:
                _extract_zip(archive, extract_path)
                if Path(filename).suffix == ".whl":
                    if metadata:
                        loader.set_wheel_metadata(filename, archive, extract_path, metadata)
                    loader.install_datafiles(filename, archive, extract_path)
                names = archive.namelist()
        else:
            with tarfile.open(fileobj=stream) as archive:
                # What shutil.unpack_archive does on Python 3.14 (its default extraction filter is "data").
                archive.extractall(extract_path, filter="data")
                names = archive.getnames()
    if calculate_dynlibs:
        return to_js([str((extract_path / name).resolve()) for name in names if loader.should_load_dynlib(name)])
    return None


# Pyodide's JavaScript looks the function up on the module at every install (API.package_loader.unpack_buffer).
loader.unpack_buffer = unpack_buffer
`;

/** Runs PACKAGE_UNPACK_PY in a namespace of its own: `runPython` is the booted runtime's (its value is None). */
export function installPackageUnpack(runPython: (code: string) => unknown): void {
  // The source is ours, embedded as a JSON string literal (valid Python); one expression, so nothing is bound in
  // __main__, which becomes the user's namespace.
  runPython(
    `(lambda src: exec(compile(src, 'pyodide_mcp_package_unpack.py', 'exec'), {'__name__': 'pyodide_mcp_package_unpack'}))` +
      `(${JSON.stringify(PACKAGE_UNPACK_PY)})`,
  );
}
