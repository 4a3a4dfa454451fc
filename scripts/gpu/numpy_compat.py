"""Keeps numba-cuda working with the numpy it finds.

numba-cuda 0.30 (the GPU machines' version) still calls `numpy.row_stack` when it compiles a
kernel, and numpy 2.5 removed that name (it was an alias of `numpy.vstack` since numpy 1.x).
`patch()` puts the alias back before numba is imported; it changes nothing where the name exists.
"""


def patch():
    import numpy as np

    if not hasattr(np, "row_stack"):
        np.row_stack = np.vstack
