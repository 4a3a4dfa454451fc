"""rumba's IPC handle text and CUDA Array Interface line, read and written from Python.

`rumba ipc export` prints two lines:

    handle: rumba-ipc-array/1;backend=cuda;pid=…;device=0;bytes=…;offset=…;first=…;typestr=<f4;shape=3,3;strides=24,8;handle=<128 hex digits>
    cai: {'data': (…, False), 'descr': [('', '<f4')], 'mask': None, 'shape': (3, 3), 'stream': None, 'strides': (24, 8), 'typestr': '<f4', 'version': 3}

On CUDA, `handle` is the 64 bytes of the `cudaIpcMemHandle_t` of the exported allocation;
`offset` is where the shared range starts in that allocation, `bytes` its length, `first` the
byte offset of element 0 inside the range, strides are in bytes. So element 0 of the array lies
at `base + offset + first`, where `base` is what `cudaIpcOpenMemHandle` returns.

`format_handle` writes the same text for memory exported by another library, for
`rumba ipc open` to open. Standard library only (no numpy), so it can be checked anywhere:
`python3 rumba_ipc.py --selfcheck [RUMBA]` round-trips the text form and, given a `rumba`
binary, checks the lines a real `rumba ipc export` prints (on the sim when there is no GPU).
"""
import ast
import os
import subprocess
import sys

TAG = "rumba-ipc-array/1"


def parse_handle(text):
    """The fields of a handle line (with or without the `handle: ` prefix) as a dict."""
    text = text.strip()
    if text.startswith("handle: "):
        text = text[len("handle: "):]
    parts = text.split(";")
    if parts[0] != TAG:
        raise ValueError(f"not a rumba IPC handle (expected {TAG}): {text[:40]!r}")
    fields = dict(p.split("=", 1) for p in parts[1:])
    ints = lambda s: tuple(int(x) for x in s.split(",")) if s else ()
    return {
        "backend": fields["backend"],
        "pid": int(fields["pid"]),
        "device": int(fields["device"]),
        "bytes": int(fields["bytes"]),
        "offset": int(fields["offset"]),
        "first": int(fields["first"]),
        "typestr": fields["typestr"],
        "shape": ints(fields["shape"]),
        "strides": ints(fields["strides"]),
        "handle": bytes.fromhex(fields["handle"]),
    }


def extent(shape, strides, itemsize):
    """(lo, hi): the byte range an array spans relative to element 0 (lo <= 0 with negative strides)."""
    lo = hi = 0
    if any(n == 0 for n in shape):
        return 0, 0
    for n, s in zip(shape, strides):
        reach = (n - 1) * s
        if reach < 0:
            lo += reach
        else:
            hi += reach
    return lo, hi + itemsize


def format_handle(handle, *, elem0_offset, shape, strides, typestr, itemsize, device=0,
                  pid=None, backend="cuda"):
    """A handle line for an array whose element 0 lies `elem0_offset` bytes after the base of the
    allocation that `handle` (64 bytes from cudaIpcGetMemHandle) exports; strides in bytes."""
    handle = bytes(handle)
    if len(handle) != 64:
        raise ValueError(f"a CUDA IPC handle has 64 bytes, not {len(handle)}")
    lo, hi = extent(shape, strides, itemsize)
    start = elem0_offset + lo
    if start < 0:
        raise ValueError("the array reaches before the start of its allocation")
    join = lambda xs: ",".join(str(int(x)) for x in xs)
    return (f"{TAG};backend={backend};pid={os.getpid() if pid is None else pid};device={device};"
            f"bytes={hi - lo};offset={start};first={-lo};typestr={typestr};"
            f"shape={join(shape)};strides={join(strides)};handle={handle.hex()}")


def parse_cai(line):
    """The `cai:` line (a Python dict literal) as a dict."""
    line = line.strip()
    if line.startswith("cai: "):
        line = line[len("cai: "):]
    d = ast.literal_eval(line)
    if d.get("version") != 3:
        raise ValueError(f"not a version-3 CUDA Array Interface: {d}")
    return d


def parse_values(line):
    """The numbers of a `values: a,b,…` line."""
    line = line.strip()
    if not line.startswith("values: "):
        raise ValueError(f"not a values line: {line[:40]!r}")
    return [float(v) for v in line[len("values: "):].split(",") if v]


class CudaArrayInterfaceObject:
    """Any description as an object exposing `__cuda_array_interface__` (keeps `owner` alive)."""

    def __init__(self, desc, owner=None):
        self.__cuda_array_interface__ = desc
        self._owner = owner


def cai_at(cai, ptr):
    """rumba's description with the data pointer replaced by `ptr` (the same memory as mapped
    into this process), in the form CuPy and Numba consume."""
    d = dict(cai)
    d["data"] = (int(ptr), False)
    d.pop("mask", None)
    d.pop("descr", None)
    return d


class Exporter:
    """A running `rumba ipc export`: its handle, its description, and (after `finish`) what it
    read back after the other side wrote."""

    def __init__(self, rumba, args, env=None):
        self.proc = subprocess.Popen([rumba, "ipc", "export", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env)
        first = self.proc.stdout.readline()
        if not first.startswith("handle: "):
            err = self.proc.stderr.read()
            self.proc.kill()
            raise RuntimeError(f"rumba ipc export failed: {first!r} {err.strip()}")
        self.text = first.strip()[len("handle: "):]
        self.handle = parse_handle(self.text)
        self.cai = parse_cai(self.proc.stdout.readline())

    def finish(self):
        """Tells the exporter the other side is done; returns the values it now reads."""
        out, err = self.proc.communicate("done\n", timeout=60)
        if self.proc.returncode != 0:
            raise RuntimeError(f"rumba ipc export exited {self.proc.returncode}: {err.strip()}")
        lines = [l for l in out.splitlines() if l.startswith("values: ")]
        if not lines:
            raise RuntimeError(f"rumba ipc export printed no values: {out!r}")
        return parse_values(lines[0])


def rumba_open(rumba, text, scale, shift, env=None):
    """Runs `rumba ipc open TEXT --scale S --shift B`; returns the values it read."""
    p = subprocess.run([rumba, "ipc", "open", text, "--scale", str(scale), "--shift", str(shift)],
                       capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0 or "written" not in p.stdout:
        raise RuntimeError(f"rumba ipc open failed ({p.returncode}): {p.stderr.strip()} {p.stdout.strip()}")
    return parse_values([l for l in p.stdout.splitlines() if l.startswith("values: ")][0])


def expected_view(rows, cols, strided):
    """The values `rumba ipc export --shape ROWS,COLS [--strided]` exports, in C order."""
    full = [[r * cols + c for c in range(cols)] for r in range(rows)]
    if strided:
        return [float(v) for row in full[1:] for v in row[::2]]
    return [float(v) for row in full for v in row]


def selfcheck(rumba=None):
    """Checks the text forms; with a `rumba` binary, against a real export (any backend)."""
    h = bytes(range(64))
    text = format_handle(h, elem0_offset=24 + 8, shape=(3, 3), strides=(24, 8), typestr="<f4",
                         itemsize=4, pid=7)
    f = parse_handle(text)
    assert f["handle"] == h and f["offset"] == 32 and f["first"] == 0, f
    assert f["bytes"] == 2 * 24 + 2 * 8 + 4 and f["shape"] == (3, 3), f
    neg = parse_handle(format_handle(h, elem0_offset=40, shape=(4,), strides=(-8,),
                                     typestr="<f8", itemsize=8))
    assert (neg["offset"], neg["first"], neg["bytes"]) == (16, 24, 32), neg
    assert parse_values("values: 1,2.5,-3") == [1.0, 2.5, -3.0]
    checked = "text forms"
    if rumba:
        env = dict(os.environ)
        env.setdefault("RUMBA_BACKEND", "sim")
        e = Exporter(rumba, ["--dtype", "f32", "--shape", "4,6", "--strided"], env=env)
        f, cai = e.handle, e.cai
        assert f["typestr"] == cai["typestr"] == "<f4", (f, cai)
        assert f["shape"] == cai["shape"] == (3, 3), (f, cai)
        assert f["strides"] == cai["strides"] == (24, 8), (f, cai)
        assert f["first"] == 0 and f["bytes"] == 2 * 24 + 2 * 8 + 4, f
        assert f["offset"] == 24, f  # row 1 of a 4x6 f32 array
        assert len(f["handle"]) == 64 or f["backend"] == "sim", f
        # The text this module writes for the same memory opens in rumba like the original.
        again = format_handle(f["handle"], elem0_offset=f["offset"] + f["first"],
                              shape=f["shape"], strides=f["strides"], typestr="<f4",
                              itemsize=4, device=f["device"], pid=f["pid"],
                              backend=f["backend"]) if len(f["handle"]) == 64 else None
        if again is not None:
            assert parse_handle(again) == f, (parse_handle(again), f)
        read = rumba_open(rumba, e.text, -1.0, 0.5, env=env)
        want = expected_view(4, 6, True)
        assert read == want, (read, want)
        after = e.finish()
        assert after == [-v + 0.5 for v in want], after
        checked += f"; a real export on backend {f['backend']} (handle, cai, open, write-back)"
    print(f"rumba_ipc selfcheck ok: {checked}")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--selfcheck":
        selfcheck(sys.argv[2] if len(sys.argv) > 2 else None)
    else:
        print(__doc__)
