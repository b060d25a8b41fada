"""Self-play on a Ray cluster, for those with many machines: each batch of games a Ray task,
the results gathered in the order of the batches, so the data file is the one a single process
would write (a game is a function of its number and the settings alone).

``address`` is what ``ray.init`` takes: ``ray://HOST:PORT`` or ``auto`` for a cluster, or
``local`` for a Ray started here on this machine's cores (the way the tests run it).
Ray is the ``cluster`` extra: ``pip install 'kbdraughts[cluster]'``.
"""

from __future__ import annotations

from typing import Callable, Iterable, Iterator, TypeVar

__all__ = ["run_on_cluster"]

T = TypeVar("T")
R = TypeVar("R")
#: Tasks in flight at once: enough to keep a cluster busy, few enough to bound the memory
#: their results hold before they are written.
IN_FLIGHT = 64


def run_on_cluster(address: str, work: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
    """``work(item)`` for each item as Ray tasks on the cluster at ``address``, the results
    in the items' order."""
    import ray

    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=None, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
    task = ray.remote(work)
    try:
        pending = []
        for item in items:
            pending.append(task.remote(item))
            if len(pending) >= IN_FLIGHT:
                yield ray.get(pending.pop(0))
        while pending:
            yield ray.get(pending.pop(0))
    finally:
        if started:
            ray.shutdown()
