"""HPCC's own hypercube algorithm (Sandia's, MPIRandomAccess_opt.c under -DRA_SANDIA_OPT2: Plimpton et al., Cluster
2006) as HPCC 1.5.0 ships it. Debian's hpcc binary is built without it, so this builds Debian's hpcc source package
with it: the source fetched by apt-get source through a private deb-src list of the host's Debian release (nothing
of the system's apt configuration changes), HPL's one use of two MPI-1 names that MPI-3 removed (MPI_Address,
MPI_Type_struct, which Open MPI 4's header refuses) renamed to their MPI-2 forms, linked with Open MPI and
OpenBLAS, into a cache folder. Where any step cannot be done (no network, no compiler), `build` says why in one
line and the caller leaves HPCC's hypercube row out."""
import glob
import os
import shutil
import subprocess
import tarfile

BINARY = "hpcc-sandia-opt2"
DEFAULT_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "torus-gups")
OPENBLAS_HINT = "apt install libopenblas-dev (tests/benchmarks/hpcc-peer.sh does)"
MIRROR = "http://deb.debian.org/debian"
# HPL's make file for this build: Open MPI's wrapper compiler, OpenBLAS through CBLAS, Sandia's OPT2 algorithm.
MAKE_FILE = """SHELL = /bin/sh
CD = cd
CP = cp
LN_S = ln -s
MKDIR = mkdir
RM = /bin/rm -f
TOUCH = touch
ARCH = $(arch)
TOPdir = ../../..
INCdir = $(TOPdir)/include
BINdir = $(TOPdir)/bin/$(ARCH)
LIBdir = $(TOPdir)/lib/$(ARCH)
HPLlib = $(LIBdir)/libhpl.a
LAlib = -lopenblas
HPL_INCLUDES = -I$(INCdir) -I$(INCdir)/$(ARCH)
HPL_LIBS = $(HPLlib) $(LAlib) -lm
HPL_DEFS = -DHPL_CALL_CBLAS $(HPL_INCLUDES)
CC = mpicc.openmpi
CCNOOPT = $(HPL_DEFS)
CCFLAGS = $(HPL_DEFS) -O2 -fcommon -DRA_SANDIA_OPT2
LINKER = mpicc.openmpi
LINKFLAGS = $(CCFLAGS)
ARCHIVER = ar
ARFLAGS = r
RANLIB = echo
"""


def codename():
    try:
        with open("/etc/os-release", encoding="utf-8") as f:
            fields = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
    except OSError:
        return None
    return fields.get("VERSION_CODENAME", "").strip('"') or None


def fetch_source(work):
    """Debian's hpcc source in `work` (apt-get source, --download-only); the upstream tarball's path."""
    release = codename()
    if release is None:
        raise RuntimeError("no Debian release named in /etc/os-release")
    lists = os.path.join(work, "lists")
    os.makedirs(os.path.join(lists, "partial"), exist_ok=True)
    source_list = os.path.join(work, "sources.list")
    with open(source_list, "w", encoding="utf-8") as f:
        f.write(f"deb-src {MIRROR} {release} main\n")
    apt = ["apt-get", "-q", "-o", f"Dir::Etc::SourceList={source_list}", "-o", "Dir::Etc::SourceParts=/dev/null",
           "-o", f"Dir::State::Lists={lists}"]
    done = subprocess.run(apt + ["update"], cwd=work, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"apt-get update of {MIRROR} {release}'s sources failed: {done.stderr.strip()[-200:]}")
    # Debian's own patches are not needed (the one this build needs is made below): the upstream tarball suffices.
    subprocess.run(apt + ["source", "--download-only", "hpcc"], cwd=work, capture_output=True, text=True, timeout=600)
    tarballs = glob.glob(os.path.join(work, "hpcc_*.orig.tar.gz"))
    if not tarballs:
        raise RuntimeError(f"apt-get source hpcc fetched no upstream tarball from {MIRROR} {release}")
    return tarballs[0]


def compile_source(tarball, work):
    with tarfile.open(tarball) as archive:
        if hasattr(tarfile, "data_filter"):
            archive.extractall(work, filter="data")
        else:  # Python before 3.11.4: the tarball is Debian's, fetched over its signed index
            archive.extractall(work)
    [top] = [d for d in glob.glob(os.path.join(work, "hpcc-*")) if os.path.isdir(d)]
    packl = os.path.join(top, "hpl", "src", "comm", "HPL_packL.c")
    text = open(packl, encoding="utf-8").read()
    with open(packl, "w", encoding="utf-8") as f:
        f.write(text.replace("MPI_Address(", "MPI_Get_address(").replace("MPI_Type_struct(", "MPI_Type_create_struct("))
    with open(os.path.join(top, "hpl", "Make.sandia"), "w", encoding="utf-8") as f:
        f.write(MAKE_FILE)
    jobs = str(max(1, len(os.sched_getaffinity(0))))
    done = subprocess.run(["make", "arch=sandia", "-j", jobs], cwd=top, capture_output=True, text=True, timeout=1800)
    binary = os.path.join(top, "hpcc")
    if not os.path.exists(binary):
        raise RuntimeError(f"make arch=sandia failed ({done.returncode}): {done.stderr.strip()[-200:]}")
    return binary


def openblas_installed():
    """OpenBLAS's library to link with (libopenblas-dev's), in the linker's directories."""
    return any(glob.glob(pattern) for pattern in ("/usr/lib/libopenblas.so", "/usr/lib/*/libopenblas.so",
                                                   "/usr/lib64/libopenblas.so"))


def build(cache):
    """(path of HPCC built with RA_SANDIA_OPT2, None) or (None, why not in one line). Built once into `cache`."""
    target = os.path.join(cache, BINARY)
    if os.access(target, os.X_OK):
        return target, None
    for tool in ("apt-get", "make", "mpicc.openmpi"):
        if shutil.which(tool) is None:
            return None, f"HPCC's hypercube (RA_SANDIA_OPT2) not built: {tool} is not installed"
    if not openblas_installed():  # said before anything is fetched
        return None, f"HPCC's hypercube (RA_SANDIA_OPT2) not built: OpenBLAS is not installed ({OPENBLAS_HINT})"
    work = os.path.join(cache, "hpcc-source")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    try:
        binary = compile_source(fetch_source(work), work)
    except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError, tarfile.TarError) as error:
        return None, f"HPCC's hypercube (RA_SANDIA_OPT2) not built: {error}"
    shutil.copy2(binary, target)
    shutil.rmtree(work, ignore_errors=True)
    return target, None
