import os as _os

__version__ = "0.1.0"

# numpy's OpenBLAS starts a thread per core when numpy is imported, and each one spins for a
# while before it sleeps: on a small machine that takes a core from the nmon reader's own
# threads just when they start. lparscope does no linear algebra, so one BLAS thread is enough
# (set before any lparscope module imports numpy; a value the user set is kept).
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
