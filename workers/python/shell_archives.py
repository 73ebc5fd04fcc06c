"""`!unzip` and `!tar` of archives in the workspace: every member must land inside the workspace.

Extraction writes through Python's own files, so the session's file quota applies. Runs on Python 3.8 and 3.14.
"""
import os
import tarfile
import zipfile

from .shell_commands import CommandError, confined


def _safe_target(destination, member):
    """Where a member goes; a member that would land outside the destination (`../`, absolute) is refused."""
    target = os.path.realpath(os.path.join(destination, member))
    if target != destination and not target.startswith(destination.rstrip("/") + "/"):
        raise CommandError("refusing member '%s': it would land outside '%s'" % (member, destination))
    confined(target)
    return target


def unzip(ctx):
    words = ctx.argv[1:]
    destination, listing, archive = ctx.cwd, False, None
    quiet = False
    while words:
        word = words.pop(0)
        if word == "-d" and words:
            destination = ctx.path(words.pop(0))
        elif word == "-l":
            listing = True
        elif word in ("-o", "-n"):
            pass  # existing files are overwritten either way
        elif word == "-q":
            quiet = True
        elif word.startswith("-"):
            raise CommandError("option %s is not supported (supported: -d dir, -l, -o, -q)" % (word,))
        elif archive is None:
            archive = word
        else:
            raise CommandError("extracting only some members is not supported; unzip the whole archive")
    if archive is None:
        raise CommandError("no archive given (unzip [-d dir] archive.zip)")
    with zipfile.ZipFile(ctx.path(archive)) as zipped:
        if listing:
            for info in zipped.infolist():
                ctx.out.write("%9d  %s\n" % (info.file_size, info.filename))
            return 0
        if not quiet:
            ctx.out.write("Archive:  %s\n" % (archive,))
        os.makedirs(destination, exist_ok=True)
        for info in zipped.infolist():
            target = _safe_target(destination, info.filename)
            if info.filename.endswith("/"):
                os.makedirs(target, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with zipped.open(info) as source, open(target, "wb") as sink:
                while True:
                    chunk = source.read(1 << 20)
                    if not chunk:
                        break
                    sink.write(chunk)
            if not quiet:
                ctx.out.write("  inflating: %s\n" % (os.path.relpath(target, ctx.cwd),))
    return 0


def tar(ctx):
    # No owner names: tarfile asks the pwd and grp modules for them (and chowns, since the sandbox's euid is 0), and
    # on the legacy runtime getpwuid_r / getpwnam_r are unimplemented Emscripten stubs whose call breaks the
    # interpreter (measured: every later cell of the session failed).
    saved = tarfile.pwd, tarfile.grp
    tarfile.pwd = tarfile.grp = None
    try:
        return _tar(ctx)
    finally:
        tarfile.pwd, tarfile.grp = saved


def _tar(ctx):
    words = ctx.argv[1:]
    if not words:
        raise CommandError("no mode given (tar -xf, -tf or -czf archive ...)")
    mode_word = words.pop(0).lstrip("-")
    archive, destination, verbose = None, ctx.cwd, "v" in mode_word
    if "f" in mode_word:
        if not words:
            raise CommandError("option -f needs an archive name")
        archive = words.pop(0)
    members = []
    while words:
        word = words.pop(0)
        if word == "-C" and words:
            destination = ctx.path(words.pop(0))
        elif word.startswith("-"):
            raise CommandError("option %s is not supported (supported: -x -t -c, -z -j -v, -f archive, -C dir)" % (word,))
        else:
            members.append(word)
    if archive is None:
        raise CommandError("name the archive with -f (tar -xf archive.tar)")
    compression = "gz" if "z" in mode_word else "bz2" if "j" in mode_word else "xz" if "J" in mode_word else ""
    if "c" in mode_word:
        with tarfile.open(ctx.path(archive), "w:" + compression) as packed:
            for name in members:
                packed.add(ctx.path(name), arcname=name)
                if verbose:
                    ctx.out.write(name + "\n")
        return 0
    with tarfile.open(ctx.path(archive), "r:*") as packed:
        if "t" in mode_word:
            for member in packed.getmembers():
                ctx.out.write(member.name + "\n")
            return 0
        if "x" not in mode_word:
            raise CommandError("give one of -x (extract), -t (list), -c (create)")
        for member in packed.getmembers():
            if member.issym() or member.islnk() or member.isdev():
                raise CommandError("refusing member '%s': links and devices are not extracted here" % (member.name,))
            _safe_target(destination, member.name)
        if hasattr(tarfile, "data_filter"):
            packed.extractall(destination, filter="data")
        else:
            packed.extractall(destination)
        if verbose:
            for member in packed.getmembers():
                ctx.out.write(member.name + "\n")
    return 0
