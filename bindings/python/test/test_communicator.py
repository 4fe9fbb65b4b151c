"""Context.set_communicator (kmx_context_set_communicator): two ranks as two threads of this process (the
GIL is released during kmx's calls), each with its own context, give the one-process model to the bit; a
communicator that raises fails the call with kmx.IoError raised from its exception; None restores the single
process; a rank outside [0, size) is refused."""
import gc
import os
import threading
import weakref

import numpy as np
import pytest

import kmx

from conftest import EXAMPLE_DATA

LETTER = os.path.join(EXAMPLE_DATA, "letter_bin.train.libsvm")


class ThreadRanks:
    """Ranks as threads: each exchange puts every rank's values in a shared slot between two barriers, and
    every rank combines the slots in rank order, so all get the same bits (as
    tests/unit/nystrom_tron/thread_ranks.h)."""

    def __init__(self, size):
        self.size, self.sums = size, 0
        self.barrier = threading.Barrier(size, timeout=120)  # a broken exchange fails, it does not hang
        self.slots = [None] * size

    def communicator(self, rank):
        return _Rank(self, rank)


class _Rank:
    def __init__(self, group, rank):
        self.group, self.rank, self.size = group, rank, group.size

    def _exchange(self, value):
        g = self.group
        g.slots[self.rank] = value
        g.barrier.wait()
        slots = list(g.slots)
        g.barrier.wait()
        return slots

    def allreduce_sum(self, values):  # returns the sums
        if self.rank == 0:
            self.group.sums += 1
        slots = self._exchange(values.copy())
        total = slots[0].copy()
        for other in slots[1:]:
            total += other
        return total

    def allreduce_max(self, values):  # in place
        values[:] = np.maximum.reduce(self._exchange(values.copy()))

    def broadcast(self, data, root):  # in place
        data[:] = self._exchange(bytes(data))[root]


def tron(ctx, data):
    solver = kmx.Solver(method="nystrom_tron", centers=200, stages=2)
    return solver.train(kmx.Kernel(gamma=16.0), data, ctx)


def test_two_thread_ranks_give_the_one_process_model_to_the_bit():
    everything = kmx.Dataset.load(LETTER)
    alone = tron(kmx.Context(threads=1, seed=1), everything).decision_values(everything)
    ranks = ThreadRanks(2)
    values, rows, errors = [None, None], [0, 0], []

    def rank(r):
        try:
            ctx = kmx.Context(threads=1, seed=1)
            ctx.set_communicator(ranks.communicator(r))
            shard = kmx.Dataset.load_shard(LETTER, r, 2, ctx)  # collective: through the communicator too
            rows[r] = shard.shape[0]
            values[r] = tron(ctx, shard).decision_values(everything)
        except BaseException as e:  # noqa: B902 (reported below)
            errors.append(e)
            ranks.barrier.abort()

    threads = [threading.Thread(target=rank, args=(r,)) for r in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert 0 < rows[0] < everything.shape[0] and rows[0] + rows[1] == everything.shape[0]
    assert ranks.sums > 0
    for r in range(2):
        np.testing.assert_array_equal(values[r], alone)


def broken(sum_error=None, max_error=None, rank=0, size=2):
    """Two ranks on one process: max and broadcast leave the values as they are (this rank's), sum fails
    (raising sum_error, or returning too few values); max raises max_error if given."""
    calls = []

    class Broken:
        def allreduce_sum(self, values):
            calls.append(len(values))
            if sum_error:
                raise sum_error
            return values[1:]  # the wrong length

        def allreduce_max(self, values):
            if max_error:
                raise max_error

        def broadcast(self, data, root):
            return bytes(data)

    comm = Broken()
    comm.rank, comm.size = rank, size
    return comm, calls


def test_a_communicator_that_raises_fails_the_call_with_io_and_none_restores_one_process(letter_bin):
    x, y, xt, _ = letter_bin
    data = kmx.Dataset(x[:2000], y[:2000])
    ctx = kmx.Context(threads=1, seed=1)
    comm, calls = broken(ConnectionError("no route to rank 1"))
    ctx.set_communicator(comm)
    with pytest.raises(kmx.IoError, match="failed in a sum.*allreduce_sum raised ConnectionError: no route to rank 1") \
            as caught:
        tron(ctx, data)
    assert isinstance(caught.value.__cause__, ConnectionError)
    assert len(calls) == 1  # not called again during the failing call
    ctx.set_communicator(broken(max_error=KeyError("rank 1"))[0])
    with pytest.raises(kmx.IoError, match="allreduce_max raised KeyError: 'rank 1'"):  # a collective load
        kmx.Dataset.load_shard(LETTER, 0, 2, ctx)
    ctx.set_communicator(broken()[0])
    with pytest.raises(kmx.IoError, match=r"allreduce_sum raised ValueError: it returned an array of shape"):
        tron(ctx, data)
    ctx.set_communicator(None)
    alone = tron(kmx.Context(threads=1, seed=1), data).decision_values(kmx.Dataset(xt))
    np.testing.assert_array_equal(tron(ctx, data).decision_values(kmx.Dataset(xt)), alone)


def test_a_rank_outside_the_ranks_is_refused_and_one_rank_calls_nothing(letter_bin):
    x, y, xt, _ = letter_bin
    ctx = kmx.Context(threads=1, seed=1)
    for rank, size in ((2, 2), (-1, 2), (0, 0), (2**31, 2**31 + 1)):
        with pytest.raises(kmx.InvalidArgumentError, match=r"rank must be in \[0, size\)"):
            ctx.set_communicator(broken(rank=rank, size=size)[0])
    with pytest.raises(AttributeError):
        ctx.set_communicator(object())
    comm, calls = broken(RuntimeError("not called"), size=1)
    ctx.set_communicator(comm)
    data = kmx.Dataset(x[:2000], y[:2000])
    alone = tron(kmx.Context(threads=1, seed=1), data).decision_values(kmx.Dataset(xt))
    np.testing.assert_array_equal(tron(ctx, data).decision_values(kmx.Dataset(xt)), alone)
    assert calls == []


def test_the_context_keeps_its_communicator_until_it_is_replaced_or_closed():
    ctx = kmx.Context()
    for release in (lambda: ctx.set_communicator(None), ctx.close):
        comm = broken(size=1)[0]
        kept = weakref.ref(comm)
        ctx.set_communicator(comm)
        del comm
        gc.collect()
        assert kept() is not None
        release()
        gc.collect()
        assert kept() is None
