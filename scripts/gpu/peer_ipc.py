"""Interchange between rumba and real CUDA peers in Python (CuPy, Numba-CUDA, PyTorch) on a GPU.

For each peer that imports, in both directions, reading and writing:

1. rumba -> peer: `rumba ipc export --strided` exports the view [1:, ::2] of a 4x6 f32 array
   (offset and strides). The peer opens rumba's IPC handle (CuPy: cudaIpcOpenMemHandle; Numba:
   open_ipc_array), rebuilds the array from rumba's own CUDA Array Interface description (the
   `cai:` line, its data pointer translated to the mapping in this process) — so the description
   is what the peer consumes, zero-copy — checks the values, writes `x * 3 + 0.5` into the
   strided view, and rumba checks what it reads back.
2. peer -> rumba: the peer allocates a 4x6 f32 array, exports the view [1:, ::2] by its own IPC
   handle, written as rumba's handle text (rumba_ipc.format_handle); `rumba ipc open` reads it
   and writes `x * -2 + 1`; the peer checks the whole array (outside the view unchanged).
3. DLPack: rumba's memory, once mapped here (step 1, through CuPy), goes zero-copy by DLPack to
   PyTorch and back to CuPy (same pointer, same values, a write seen by the other side). rumba's
   own DLPack export is a Rust object in rumba's process; with no Python binding, a Python peer
   cannot receive it directly.
4. PyTorch consumes rumba's CUDA Array Interface description (torch.as_tensor) zero-copy.

Prints one JSON line per check ({"peer", "check", "ok", "detail"}), `SKIPPED <peer>: why` for a
peer that does not import, and exits 1 if any check failed, 2 if no peer could run.

Usage: python3 peer_ipc.py --rumba PATH/TO/rumba [--peer cupy --peer numba --peer torch]
Needs a GPU; rumba runs with RUMBA_BACKEND=cuda (an error, not the sim, where CUDA is unusable).
"""
import argparse
import json
import os
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy_compat  # noqa: E402
import rumba_ipc  # noqa: E402

FAILED = []
SHAPE = (4, 6)


def record(peer, check, ok, detail=""):
    print(json.dumps({"peer": peer, "check": check, "ok": bool(ok), "detail": str(detail)}), flush=True)
    if not ok:
        FAILED.append((peer, check))


def attempt(peer, check, fn):
    try:
        detail = fn()
        record(peer, check, True, detail or "")
    except Exception as e:  # every failure is reported, the other checks still run
        record(peer, check, False, f"{type(e).__name__}: {e} | {traceback.format_exc(limit=3)!r}")


def rumba_env():
    env = dict(os.environ)
    env["RUMBA_BACKEND"] = "cuda"
    return env


def want_view():
    return rumba_ipc.expected_view(SHAPE[0], SHAPE[1], True)


# ------------------------------------------------------------------------------------ CuPy

def cupy_open_rumba(rumba, torch=None):
    import cupy
    import numpy as np
    e = rumba_ipc.Exporter(rumba, ["--dtype", "f32", "--shape", "4,6", "--strided"], env=rumba_env())
    h = e.handle
    assert h["backend"] == "cuda", f"rumba exported from backend {h['backend']} (RUMBA_BACKEND=cuda expected)"
    base = cupy.cuda.runtime.ipcOpenMemHandle(h["handle"])
    try:
        desc = rumba_ipc.cai_at(e.cai, base + h["offset"] + h["first"])
        arr = cupy.asarray(rumba_ipc.CudaArrayInterfaceObject(desc))
        assert arr.data.ptr == desc["data"][0], "cupy.asarray copied instead of viewing"
        assert arr.shape == tuple(e.cai["shape"]) and arr.strides == tuple(e.cai["strides"]), (arr.shape, arr.strides)
        got = cupy.asnumpy(arr).ravel().tolist()
        assert got == want_view(), f"CuPy read {got}, rumba exported {want_view()}"
        arr *= 3
        arr += 0.5
        cupy.cuda.runtime.deviceSynchronize()
        dl = "DLPack not tried (PyTorch not importable)"
        if torch is not None:
            t = torch.from_dlpack(arr)
            assert t.data_ptr() == arr.data.ptr, "torch.from_dlpack copied"
            assert t.cpu().flatten().tolist() == [v * 3 + 0.5 for v in want_view()]
            back = cupy.from_dlpack(t)
            assert back.data.ptr == arr.data.ptr, "cupy.from_dlpack copied"
            t.add_(0.0)  # a write through torch, on the same memory, that changes nothing
            torch.cuda.synchronize()
            dl = "rumba's memory went CuPy -> PyTorch -> CuPy by DLPack without a copy"
        after = e.finish()
        want = [v * 3 + 0.5 for v in want_view()]
        assert after == want, f"rumba read {after} after CuPy wrote, expected {want}"
        return f"read 9 strided values through rumba's CAI description, wrote them, rumba saw the write; {dl}"
    finally:
        cupy.cuda.runtime.ipcCloseMemHandle(base)
        if e.proc.poll() is None:
            e.proc.kill()


def cupy_export_to_rumba(rumba):
    import cupy
    nbytes = SHAPE[0] * SHAPE[1] * 4
    ptr = cupy.cuda.runtime.malloc(nbytes)  # a whole allocation of its own: its handle's base
    try:
        mem = cupy.cuda.UnownedMemory(ptr, nbytes, None)
        full = cupy.ndarray(SHAPE, cupy.float32, cupy.cuda.MemoryPointer(mem, 0))
        full[...] = cupy.arange(24, dtype=cupy.float32).reshape(SHAPE)
        view = full[1:, ::2]
        handle = cupy.cuda.runtime.ipcGetMemHandle(ptr)
        text = rumba_ipc.format_handle(handle, elem0_offset=view.data.ptr - ptr, shape=view.shape,
                                       strides=view.strides, typestr="<f4", itemsize=4,
                                       device=cupy.cuda.Device().id)
        cupy.cuda.runtime.deviceSynchronize()
        read = rumba_ipc.rumba_open(rumba, text, -2.0, 1.0, env=rumba_env())
        assert read == want_view(), f"rumba read {read}"
        host = cupy.asnumpy(full)
        want = [[float(r * 6 + c) for c in range(6)] for r in range(4)]
        for r in range(1, 4):
            for c in range(0, 6, 2):
                want[r][c] = want[r][c] * -2.0 + 1.0
        assert host.tolist() == want, f"after rumba wrote: {host.tolist()}"
        return "rumba opened CuPy's handle, read the strided view, wrote it; CuPy saw exactly the view change"
    finally:
        cupy.cuda.runtime.free(ptr)


# ------------------------------------------------------------------------------------ Numba

def numba_handle_bytes(ipch):
    h = getattr(ipch.handle, "reserved", ipch.handle)
    if isinstance(h, (bytes, bytearray)):
        return bytes(h)
    return bytes(int(x) & 0xFF for x in h)


def numba_open_rumba(rumba):
    import numpy as np
    from numba import cuda

    @cuda.jit
    def affine(a, scale, shift):
        i, j = cuda.grid(2)
        if i < a.shape[0] and j < a.shape[1]:
            a[i, j] = a[i, j] * scale + shift

    e = rumba_ipc.Exporter(rumba, ["--dtype", "f32", "--shape", "4,6", "--strided"], env=rumba_env())
    h = e.handle
    try:
        with cuda.open_ipc_array(h["handle"], shape=(h["bytes"],), dtype=np.uint8, offset=h["offset"]) as raw:
            ptr = raw.__cuda_array_interface__["data"][0] + h["first"]
            desc = rumba_ipc.cai_at(e.cai, ptr)
            arr = cuda.as_cuda_array(rumba_ipc.CudaArrayInterfaceObject(desc, owner=raw))
            assert arr.__cuda_array_interface__["data"][0] == ptr, "as_cuda_array copied"
            got = arr.copy_to_host().ravel().tolist()
            assert got == want_view(), f"Numba read {got}"
            affine[(1, 1), (8, 8)](arr, np.float32(3.0), np.float32(0.5))
            cuda.synchronize()
        after = e.finish()
        want = [v * 3 + 0.5 for v in want_view()]
        assert after == want, f"rumba read {after} after Numba wrote, expected {want}"
        return "read 9 strided values through rumba's CAI description (as_cuda_array), wrote them in a kernel, rumba saw the write"
    finally:
        if e.proc.poll() is None:
            e.proc.kill()


def numba_export_to_rumba(rumba):
    import numpy as np
    from numba import cuda
    d = cuda.to_device(np.arange(24, dtype=np.float32).reshape(SHAPE))
    view = d[1:, ::2]
    ipch = cuda.current_context().get_ipc_handle(d.gpu_data)
    base = d.__cuda_array_interface__["data"][0] - ipch.offset
    text = rumba_ipc.format_handle(numba_handle_bytes(ipch),
                                   elem0_offset=view.__cuda_array_interface__["data"][0] - base,
                                   shape=view.shape, strides=view.strides, typestr="<f4", itemsize=4,
                                   device=cuda.get_current_device().id)
    cuda.synchronize()
    read = rumba_ipc.rumba_open(rumba, text, -2.0, 1.0, env=rumba_env())
    assert read == want_view(), f"rumba read {read}"
    want = np.arange(24, dtype=np.float32).reshape(SHAPE)
    want[1:, ::2] = want[1:, ::2] * -2.0 + 1.0
    host = d.copy_to_host()
    assert (host == want).all(), f"after rumba wrote: {host.tolist()}"
    return "rumba opened Numba's handle, read the strided view, wrote it; Numba saw exactly the view change"


# ------------------------------------------------------------------------------------ PyTorch

def torch_consumes_cai(rumba):
    import torch
    import cupy
    e = rumba_ipc.Exporter(rumba, ["--dtype", "f32", "--shape", "4,6", "--strided"], env=rumba_env())
    h = e.handle
    base = cupy.cuda.runtime.ipcOpenMemHandle(h["handle"])
    try:
        desc = rumba_ipc.cai_at(e.cai, base + h["offset"] + h["first"])
        t = torch.as_tensor(rumba_ipc.CudaArrayInterfaceObject(desc), device="cuda")
        assert t.data_ptr() == desc["data"][0], "torch.as_tensor copied"
        assert t.stride() == tuple(s // 4 for s in e.cai["strides"]), t.stride()
        assert t.cpu().flatten().tolist() == want_view()
        t.mul_(-1.0)
        torch.cuda.synchronize()
        after = e.finish()
        assert after == [-v for v in want_view()], after
        return "torch.as_tensor viewed rumba's memory through its CAI description; a write reached rumba"
    finally:
        cupy.cuda.runtime.ipcCloseMemHandle(base)
        if e.proc.poll() is None:
            e.proc.kill()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rumba", required=True, help="the rumba binary")
    ap.add_argument("--peer", action="append", choices=["cupy", "numba", "torch"],
                    help="peers to run (default: every one that imports)")
    args = ap.parse_args()
    peers = args.peer or ["cupy", "numba", "torch"]
    ran = 0
    torch = None
    try:
        import torch as torch_mod
        torch = torch_mod if torch_mod.cuda.is_available() else None
    except ImportError:
        pass
    if "cupy" in peers:
        try:
            import cupy  # noqa: F401
            ran += 1
            attempt("cupy", "rumba->cupy ipc+cai (+dlpack)", lambda: cupy_open_rumba(args.rumba, torch))
            attempt("cupy", "cupy->rumba ipc", lambda: cupy_export_to_rumba(args.rumba))
        except ImportError as e:
            print(f"SKIPPED cupy: {e}", flush=True)
    if "numba" in peers:
        try:
            numpy_compat.patch()  # before numba is imported
            from numba import cuda
            if not cuda.is_available():
                raise ImportError("numba.cuda.is_available() is False")
            ran += 1
            attempt("numba-cuda", "rumba->numba ipc+cai", lambda: numba_open_rumba(args.rumba))
            attempt("numba-cuda", "numba->rumba ipc", lambda: numba_export_to_rumba(args.rumba))
        except ImportError as e:
            print(f"SKIPPED numba: {e}", flush=True)
    if "torch" in peers:
        if torch is None:
            print("SKIPPED torch: not importable or no CUDA device", flush=True)
        else:
            try:
                import cupy  # noqa: F401  (opens the IPC handle for torch)
                ran += 1
                attempt("torch", "rumba->torch cai", lambda: torch_consumes_cai(args.rumba))
            except ImportError:
                print("SKIPPED torch: the CAI check opens rumba's handle through CuPy, which is missing", flush=True)
    if ran == 0:
        print("no peer could run", file=sys.stderr)
        sys.exit(2)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
