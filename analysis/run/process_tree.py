"""Children that stop with their parent: gups-sim's smpirun, and the analysis's runs of gups-sim, mpirun and
the other programs."""
import ctypes
import os
import signal


def stop_with_parent(parent):
    """Run in the child between fork and exec (subprocess's preexec_fn, with functools.partial(stop_with_parent,
    os.getpid())): the kernel sends it SIGTERM when the parent ends, even killed with SIGKILL (Linux prctl
    PR_SET_PDEATHSIG). gups-sim, smpirun and mpirun stop their runs on SIGTERM."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent was gone before the request
        os.kill(os.getpid(), signal.SIGTERM)
