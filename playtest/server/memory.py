"""The memory budget of ``playtest serve`` (``--max-memory``).

Every page of the server runs a kernel of its own (about 57 MB for a seat page, 100 MB for
the balance lab: ``benchmarks/bench_pages.py``). Where the server runs in a container
with a memory limit (Binder: 2 GiB), passing the limit kills processes at once, every
table's included. So the server refuses a page that would pass its budget: the memory
the server and its kernels use now, plus one more kernel (the page's own, or the
preheated kernel that replaces the one it takes), must stay within it. A refused page
gets a plain "This server is full" page (503); nothing running is touched.

Memory used is the sum of PSS (``/proc/<pid>/smaps_rollup``: each shared page counted
once, divided among the processes sharing it, as a container's limit counts it) over the
server process and every process it started; RSS would count the libraries every kernel
shares once per kernel. In a container with a memory limit, what the whole container
uses counts if that is more (on Binder the Jupyter server and any notebook run beside
``playtest serve``). One more kernel is the median PSS of the kernels running now
(:data:`KERNEL_COST` while there is none).
"""
from __future__ import annotations

import html
import os
import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

KERNEL_COST = 80 << 20
"""Bytes a new kernel is expected to use while the server runs none to measure (a page
kernel, 57 to 100 MB PSS; alone, with nothing to share its libraries with, more)."""

UNLIMITED = 1 << 60
"""cgroup v1 writes its "no limit" as a number near 2^63: any limit at least this is none."""



@dataclass(frozen=True)
class Cgroup:
    """Where a container's memory limit and use are read: ``limit`` and ``usage`` files
    (bytes), and the ``stat`` file's line (``inactive``) of file cache the kernel can
    drop, which the limit does not hold against a container."""

    limit: str
    usage: str
    stat: str
    inactive: str


CGROUPS = (Cgroup("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory.stat",
                  "inactive_file"),
           Cgroup("/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                  "/sys/fs/cgroup/memory/memory.stat", "total_inactive_file"))
"""cgroup v2, then v1."""

SIZE = re.compile(r"(\d{1,15})\s*([KMGT]?)(?:i?B)?", re.IGNORECASE)


def _container(groups: tuple[Cgroup, ...]) -> tuple[Cgroup, int] | None:
    """The first cgroup of ``groups`` whose limit file can be read, with its limit in
    bytes; None when there is none or it sets no limit."""
    for group in groups:
        try:
            text = Path(group.limit).read_text().strip()
        except OSError:
            continue
        return (group, int(text)) if text.isdigit() and int(text) < UNLIMITED else None
    return None


def container_limit(groups: tuple[Cgroup, ...] = CGROUPS) -> int | None:
    """The container's memory limit in bytes (cgroup v2 ``memory.max``, else v1
    ``memory.limit_in_bytes``), or None when there is none or it cannot be read."""
    found = _container(groups)
    return found[1] if found else None


def container_usage(groups: tuple[Cgroup, ...] = CGROUPS) -> int | None:
    """Bytes the container with a memory limit uses (its usage less the file cache the
    kernel can drop, as container runtimes count a working set): every process of it,
    e.g. on Binder the Jupyter server and notebooks beside ``playtest serve``. None
    without a limited container or when it cannot be read."""
    found = _container(groups)
    if found is None:
        return None
    group = found[0]
    try:
        usage = int(Path(group.usage).read_text())
        stat = dict(line.split() for line in Path(group.stat).read_text().splitlines() if line.count(" ") == 1)
        return max(usage - int(stat.get(group.inactive, 0)), 0)
    except (OSError, ValueError):
        return None


def default_budget() -> int:
    """The budget when ``--max-memory`` is not given, in bytes: the container's limit
    (:func:`container_limit`) if there is one and it is below the machine's memory,
    else the machine's memory."""
    machine = psutil.virtual_memory().total
    limit = container_limit()
    return min(limit, machine) if limit else machine


def parse_size(text: str) -> int:
    """A memory size as people write it -> bytes: ``"2G"``, ``"2GiB"``, ``"1536M"``,
    ``"512 MB"`` (K, M, G, T are powers of 1024) or a number of bytes. ``"0"`` means
    the default (:func:`default_budget`).

    Raises:
        ValueError: with a sentence saying what is allowed.
    """
    found = SIZE.fullmatch(text.strip())
    if not found:
        raise ValueError(f"{text[:40]!r} is not a memory size: write it as 2G, 1536M or 2147483648 (bytes); "
                         "0 for the container's limit or the machine's memory")
    return int(found.group(1)) << (10 * " KMGT".index(found.group(2).upper() or " "))


def pss(pid: int) -> int | None:
    """The PSS of process ``pid`` in bytes (``/proc/<pid>/smaps_rollup``; its RSS where
    that cannot be read), or None for a process that has ended."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    try:
        return psutil.Process(pid).memory_info().rss
    except psutil.Error:
        return None


class MemoryBudget:
    """Whether one more page fits in ``limit`` bytes (see the module docstring).

    ``MemoryBudget(limit)``; :meth:`full` is asked on every page request and measures at
    most once every ``every`` seconds (a crowd's pages come together). ``limit`` 0 means
    :func:`default_budget`.
    """

    def __init__(self, limit: int = 0, every: float = 1.0, pid: int | None = None):
        self.limit = limit or default_budget()
        self.every = every
        self.pid = os.getpid() if pid is None else pid
        self._measured: tuple[float, int, int] | None = None     # (time, used, one more kernel)

    def measure(self) -> tuple[int, int]:
        """``(bytes used by the server and every process it started, or by its whole
        container if that has a limit and uses more (:func:`container_usage`), bytes one
        more kernel is expected to use)``."""
        server = psutil.Process(self.pid)
        try:
            children = [child.pid for child in server.children(recursive=True)]
        except psutil.Error:
            children = []
        kernels = [m for m in map(pss, children) if m]
        used = max((pss(self.pid) or 0) + sum(kernels), container_usage() or 0)
        return used, int(statistics.median(kernels)) if kernels else KERNEL_COST

    def full(self) -> bool:
        """Whether the server and its kernels plus one more kernel would pass the limit."""
        now = time.monotonic()
        if self._measured is None or now - self._measured[0] >= self.every:
            self._measured = (now, *self.measure())
        _, used, one_more = self._measured
        return used + one_more > self.limit


def full_sentence(pages: int, tables: int) -> str:
    """The words of the "server is full" page, e.g. "This server is full: 14 pages are
    open for 5 tables. Try again when a table ends." (``pages``: pages connected now;
    ``tables``: tables being played)."""
    open_pages = f"{pages} page{'s are' if pages != 1 else ' is'} open"
    where = f" for {tables} table{'s' if tables != 1 else ''}" if tables else ""
    return f"This server is full: {open_pages}{where}. Try again when a table ends."


def full_page_body(pages: int, tables: int, limit: int) -> str:
    """The HTML body of the "server is full" page (:func:`full_sentence`, and the budget)."""
    return (f"<h3>This server is full</h3><p>{html.escape(full_sentence(pages, tables))}</p>"
            f"<p>Every open page runs a program of its own on the server, and one more would pass the "
            f"memory this server may use ({limit >> 20:,} MB). The games being played go on; reload this page "
            "in a while.</p>")
